/* What Australia's binding (australia_module.c) shares with its batch (australia_batch.c). */
#ifndef AIRSHIPS_AUSTRALIA_BINDING_H
#define AIRSHIPS_AUSTRALIA_BINDING_H
#include <Python.h>

#include "australia.h"

/* The rules' parameters for ``num_players`` from (options, map, components), checked as data.py
 * and model.py check them; ``stack_cards_obj`` is the option as given (for the message of
 * au_check_stack_cards). 0, or -1 with a Python exception set. */
int au_parse_config(PyObject *options, PyObject *map, PyObject *components, int num_players,
                    AuConfig *c, PyObject **stack_cards_obj);
/* new_game's check: every stack is cut from its back's cards; 0 or -1. */
int au_check_stack_cards(const AuConfig *c, PyObject *stack_cards_obj);
/* A game as State.to_dict()'s fields (the generator as a state tuple). */
PyObject *au_export_dict(const AuGame *g);
/* Register AustraliaBatch and au_bot_decisions (australia_batch.c). */
int australia_batch_register(PyObject *module);

#endif
