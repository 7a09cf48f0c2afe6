/* Argument checks for the games' bindings (clockwork_module.c, australia_module.c,
 * nippon_module.c and their batches): every value that comes from
 * Python is range-checked here before a core sees it, and a bad one is a Python exception that
 * names what was expected and what was found. */
#ifndef AIRSHIPS_ARGS_H
#define AIRSHIPS_ARGS_H
#include <Python.h>

/* An integer (not a bool) in low..high into ``out``; 0, or -1 with TypeError/ValueError set. */
int arg_int(PyObject *obj, long low, long high, const char *what, long *out);
/* A bool (True or False only) into ``out``; 0 or -1. */
int arg_bool(PyObject *obj, const char *what, int *out);
/* A sequence of exactly ``n`` integers in low..high; 0 or -1. */
int arg_ints(PyObject *obj, int n, long low, long high, const char *what, long *out);
/* A sequence of at most ``most`` integers in low..high; its length, or -1. */
int arg_int_list(PyObject *obj, int most, long low, long high, const char *what, long *out);
/* A positive integer whose size is unbounded in Python: clamped to ``cap`` (a limit beyond the
 * cap is never reached, so the game is the same); 0 or -1. */
int arg_positive_capped(PyObject *obj, long long low, long long cap, const char *what,
                        long long *out);
/* The value of ``key`` in a dict (borrowed), or NULL with KeyError "state: missing 'key'". */
PyObject *arg_item(PyObject *dict, const char *key);
/* Raise ``module.name(*args)`` (an engine's own error type); a ValueError(fallback) if that
 * type cannot be made. Always returns NULL. */
PyObject *arg_raise_typed(const char *module_name, const char *name, PyObject *args,
                          const char *fallback);

/* ``obj`` as a writable C-contiguous float32 buffer of exactly ``items`` values (a seat's
 * observation) in ``view`` (release it); 0, or -1 with the buffer error or ValueError set. */
int arg_float_out(PyObject *obj, Py_ssize_t items, Py_buffer *view);
/* A new list of ``n`` actions (a game's legal actions); NULL on error. */
PyObject *arg_action_list(const int16_t *actions, int n);
/* The names of the actions in ``legal`` (a list of ints) written by ``name``; NULL on error. */
PyObject *arg_action_names(PyObject *legal, void (*name)(int action, char *out, int size));
/* Raise the engines' IllegalActionError(action, phase, legal, names, why) (``legal`` and
 * ``names`` are stolen: NULL ones mean an error is set), a ValueError naming the phase and why if
 * the type cannot be made. Always returns NULL. */
PyObject *arg_raise_illegal(PyObject *action, const char *phase, PyObject *legal, PyObject *names,
                            const char *why);

#endif
