/* Argument checks shared by the games' bindings (args.h). */
#include "args.h"

#include <stdio.h>

int arg_int(PyObject *obj, long low, long high, const char *what, long *out) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    long value = PyLong_AsLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (overflow || value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s: expected %ld..%ld, got %R", what, low, high, obj);
        return -1;
    }
    *out = value;
    return 0;
}

int arg_bool(PyObject *obj, const char *what, int *out) {
    if (!PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a bool, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = obj == Py_True;
    return 0;
}

int arg_int_list(PyObject *obj, int most, long low, long high, const char *what, long *out) {
    PyObject *fast = PySequence_Fast(obj, "expected a sequence of integers");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        PyErr_Format(PyExc_ValueError, "%s: expected at most %d integers, got %zd", what, most, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (arg_int(PySequence_Fast_GET_ITEM(fast, i), low, high, what, &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return (int)n;
}

int arg_ints(PyObject *obj, int n, long low, long high, const char *what, long *out) {
    PyObject *fast = PySequence_Fast(obj, "expected a sequence of integers");
    if (!fast) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (size != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d integers, got %zd", what, n, size);
        return -1;
    }
    return arg_int_list(obj, n, low, high, what, out) < 0 ? -1 : 0;
}

int arg_positive_capped(PyObject *obj, long long low, long long cap, const char *what,
                        long long *out) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (overflow < 0 || (!overflow && value < low)) {
        PyErr_Format(PyExc_ValueError, "%s: expected an integer >= %lld, got %R", what, low, obj);
        return -1;
    }
    *out = overflow || value > cap ? cap : value;
    return 0;
}

PyObject *arg_item(PyObject *dict, const char *key) {
    PyObject *value = PyDict_GetItemString(dict, key); /* borrowed */
    if (!value) PyErr_Format(PyExc_KeyError, "state: missing '%s'", key);
    return value;
}

PyObject *arg_raise_typed(const char *module_name, const char *name, PyObject *args,
                          const char *fallback) {
    PyObject *module = PyImport_ImportModule(module_name);
    PyObject *type = module ? PyObject_GetAttrString(module, name) : NULL;
    Py_XDECREF(module);
    PyObject *error = type && args ? PyObject_CallObject(type, args) : NULL;
    Py_XDECREF(type);
    if (error) {
        PyErr_SetObject((PyObject *)Py_TYPE(error), error);
        Py_DECREF(error);
    } else {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, fallback);
    }
    return NULL;
}

int arg_float_out(PyObject *obj, Py_ssize_t items, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view->itemsize != 4 || format[0] != 'f' || format[1] != '\0' || view->len != items * 4) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "out must be a contiguous float32 buffer of %zd items",
                     items);
        return -1;
    }
    return 0;
}

PyObject *arg_action_list(const int16_t *actions, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(actions[i]);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

PyObject *arg_action_names(PyObject *legal, void (*name)(int action, char *out, int size)) {
    Py_ssize_t n = PyList_GET_SIZE(legal);
    PyObject *names = PyList_New(n);
    if (!names) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        char text[64];
        name((int)PyLong_AsLong(PyList_GET_ITEM(legal, i)), text, sizeof text);
        PyObject *item = PyUnicode_FromString(text);
        if (!item) {
            Py_DECREF(names);
            return NULL;
        }
        PyList_SET_ITEM(names, i, item);
    }
    return names;
}

PyObject *arg_raise_illegal(PyObject *action, const char *phase, PyObject *legal, PyObject *names,
                            const char *why) {
    if (!legal || !names) {
        Py_XDECREF(legal);
        Py_XDECREF(names);
        return NULL;
    }
    PyObject *args = Py_BuildValue("(OsNNs)", action, phase, legal, names, why);
    char fallback[160];
    snprintf(fallback, sizeof fallback, "illegal action in phase '%s': %s", phase, why);
    arg_raise_typed("airships_env.protocol", "IllegalActionError", args, fallback);
    Py_XDECREF(args);
    return NULL;
}
