/* Shared by the binding's files (module.c, batch.c): the Core object and the conversions. */
#ifndef AIRSHIPS_BINDING_H
#define AIRSHIPS_BINDING_H
#include <Python.h>

#include "core.h"

typedef struct {
    PyObject_HEAD
    Cards cards;
    Options options;
} CoreObject;

int rng_from_tuple(PyObject *obj, Rng *rng);
PyObject *rng_to_tuple(const Rng *rng);
PyObject *game_export_tuple(const Game *game);
int parse_greedy_config(PyObject *obj, GreedyConfig *config);
int parse_heuristic_config(PyObject *obj, HeuristicConfig *config);
int batch_register(PyObject *module, PyTypeObject *core_type);
int clockwork_register(PyObject *module);
int australia_register(PyObject *module);
int nippon_register(PyObject *module);

#endif
