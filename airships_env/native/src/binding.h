/* Shared by the binding's files (module.c, batch.c): the Core object and the conversions. */
#ifndef AIRSHIPS_BINDING_H
#define AIRSHIPS_BINDING_H
#include <Python.h>

#include "core.h"
#include "gnet.h"

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
/* The search's network (gnet_binding.c): make_net and net_forward, and a net argument's GnNet
 * (NULL with an exception set). */
const GnNet *gnet_from(PyObject *obj);
PyObject *gnet_make(PyObject *module, PyObject *args);
PyObject *gnet_forward_py(PyObject *module, PyObject *args);
int clockwork_register(PyObject *module);
int australia_register(PyObject *module);
int nippon_register(PyObject *module);

#endif
