/* What Nippon's binding (nippon_module.c) shares with its batch (nippon_batch.c). */
#ifndef AIRSHIPS_NIPPON_BINDING_H
#define AIRSHIPS_NIPPON_BINDING_H
#include <Python.h>

#include "nippon.h"

/* The rules' parameters from (options, tables), every value checked as data.py checks it: 0, or
 * -1 with a Python exception set. */
int ni_parse_config(PyObject *options, PyObject *tables, NiConfig *c);
/* The evaluation's weights (29 finite floats, NiBotWeights' order); 0 or -1. */
int ni_parse_weights(PyObject *obj, NiBotWeights *w);
/* A game as State.to_dict()'s fields (the generator as a state tuple); NULL on error. */
PyObject *ni_export_dict(const NiGame *g);
/* Register NipponBatch and ni_bot_decisions (nippon_batch.c). */
int nippon_batch_register(PyObject *module);

#endif
