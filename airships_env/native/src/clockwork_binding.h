/* What Clockwork City's binding files share (clockwork_module.c, clockwork_batch.c). */
#ifndef AIRSHIPS_CLOCKWORK_BINDING_H
#define AIRSHIPS_CLOCKWORK_BINDING_H
#include <Python.h>

#include "clockwork.h"

/* The rules' parameters for ``num_players`` from the Python tuples (options, counts, track),
 * every value checked: 0, or -1 with a Python exception set. */
int cw_parse_config(PyObject *options, PyObject *counts, PyObject *track, int num_players,
                    CwConfig *config);
/* The state as State.to_dict()'s fields (the generator as a state tuple); NULL on error. */
PyObject *cw_export_dict(const CwGame *game);
/* Add the ClockworkBatch type to the module. */
int clockwork_batch_register(PyObject *module);

#endif
