/* The network of the search's net mode as a Python object (gnet.h): make_net copies the weights
 * into one block, and the capsule it returns frees it. */
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "gnet.h"

#define NET_CAPSULE "airships.gnet"

typedef struct {
    GnNet net;
    float *data;
} NetBlock;

static void net_free(PyObject *capsule) {
    NetBlock *block = PyCapsule_GetPointer(capsule, NET_CAPSULE);
    if (block) {
        free(block->data);
        free(block);
    }
}

const GnNet *gnet_from(PyObject *obj) {
    if (!PyCapsule_IsValid(obj, NET_CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "net must be a network made by make_net");
        return NULL;
    }
    return &((NetBlock *)PyCapsule_GetPointer(obj, NET_CAPSULE))->net;
}

static int width_arg(PyObject *obj, const char *name, int most, int *out) {
    long value = PyLong_Check(obj) && !PyBool_Check(obj) ? PyLong_AsLong(obj) : -1;
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < 1 || value > most) {
        PyErr_Format(PyExc_ValueError, "make_net: %s must be a whole number in 1..%d", name, most);
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* make_net(n_inputs, trunk_widths, value_hidden, n_actions, n_values, weights) -> net
 * ``weights``: float32 bytes, input-major matrices each followed by its bias: every trunk layer,
 * the policy head, the value layer, the value head (agents/az/network.py writes them). */
PyObject *gnet_make(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *inputs_obj, *widths_obj, *value_obj, *actions_obj, *values_obj;
    Py_buffer weights;
    if (!PyArg_ParseTuple(args, "OOOOOy*", &inputs_obj, &widths_obj, &value_obj, &actions_obj,
                          &values_obj, &weights))
        return NULL;
    NetBlock *block = NULL;
    PyObject *out = NULL;
    GnNet net;
    memset(&net, 0, sizeof net);
    if (width_arg(inputs_obj, "n_inputs", 1 << 16, &net.n_inputs) < 0 ||
        width_arg(value_obj, "value_hidden", GN_MAX_WIDTH, &net.value_hidden) < 0 ||
        width_arg(actions_obj, "n_actions", GN_MAX_WIDTH, &net.n_actions) < 0 ||
        width_arg(values_obj, "n_values", 8, &net.n_values) < 0)
        goto done;
    if (!PyList_Check(widths_obj) || PyList_GET_SIZE(widths_obj) < 1 ||
        PyList_GET_SIZE(widths_obj) > GN_MAX_LAYERS) {
        PyErr_Format(PyExc_ValueError, "make_net: trunk_widths must be a list of 1..%d widths",
                     GN_MAX_LAYERS);
        goto done;
    }
    net.n_trunk = (int)PyList_GET_SIZE(widths_obj);
    size_t expected = 0;
    int previous = net.n_inputs;
    for (int l = 0; l < net.n_trunk; l++) {
        if (width_arg(PyList_GET_ITEM(widths_obj, l), "a trunk width", GN_MAX_WIDTH, &net.width[l]) < 0)
            goto done;
        expected += (size_t)previous * (size_t)net.width[l] + (size_t)net.width[l];
        previous = net.width[l];
    }
    expected += (size_t)previous * (size_t)net.n_actions + (size_t)net.n_actions;
    expected += (size_t)previous * (size_t)net.value_hidden + (size_t)net.value_hidden;
    expected += (size_t)net.value_hidden * (size_t)net.n_values + (size_t)net.n_values;
    if ((size_t)weights.len != expected * sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "make_net: weights must be %zu float32 values (%zu bytes), "
                     "got %zd bytes", expected, expected * sizeof(float), weights.len);
        goto done;
    }
    block = calloc(1, sizeof *block);
    if (block) block->data = malloc(expected * sizeof(float));
    if (!block || !block->data) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(block->data, weights.buf, expected * sizeof(float));
    const float *at = block->data;
    previous = net.n_inputs;
    for (int l = 0; l < net.n_trunk; l++) {
        net.trunk_w[l] = at;
        at += (size_t)previous * (size_t)net.width[l];
        net.trunk_b[l] = at;
        at += net.width[l];
        previous = net.width[l];
    }
    net.policy_w = at;
    at += (size_t)previous * (size_t)net.n_actions;
    net.policy_b = at;
    at += net.n_actions;
    net.value_w = at;
    at += (size_t)previous * (size_t)net.value_hidden;
    net.value_b = at;
    at += net.value_hidden;
    net.head_w = at;
    at += (size_t)net.value_hidden * (size_t)net.n_values;
    net.head_b = at;
    block->net = net;
    out = PyCapsule_New(block, NET_CAPSULE, net_free);
    if (out) block = NULL;
done:
    if (block) {
        free(block->data);
        free(block);
    }
    PyBuffer_Release(&weights);
    return out;
}

/* net_forward(net, observation: float32 bytes) -> (logits, values): one forward pass, for tests
 * and benchmarks. */
PyObject *gnet_forward_py(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *net_obj;
    Py_buffer x;
    if (!PyArg_ParseTuple(args, "Oy*", &net_obj, &x)) return NULL;
    PyObject *out = NULL;
    const GnNet *net = gnet_from(net_obj);
    if (!net) goto done;
    if ((size_t)x.len != (size_t)net->n_inputs * sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "net_forward: the observation must be %d float32 values",
                     net->n_inputs);
        goto done;
    }
    float *logits = malloc(sizeof(float) * (size_t)net->n_actions);
    float values[8];
    if (!logits) {
        PyErr_NoMemory();
        goto done;
    }
    gn_forward(net, x.buf, logits, values);
    PyObject *l = PyList_New(net->n_actions), *v = PyList_New(net->n_values);
    for (int i = 0; l && i < net->n_actions; i++)
        PyList_SET_ITEM(l, i, PyFloat_FromDouble(logits[i]));
    for (int i = 0; v && i < net->n_values; i++)
        PyList_SET_ITEM(v, i, PyFloat_FromDouble(values[i]));
    free(logits);
    if (l && v) out = Py_BuildValue("(NN)", l, v);
    else {
        Py_XDECREF(l);
        Py_XDECREF(v);
    }
done:
    PyBuffer_Release(&x);
    return out;
}
