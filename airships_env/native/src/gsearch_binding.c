/* The games' search binding and its shared pieces (gsearch_binding.h). */
#include "gsearch_binding.h"

#include <math.h>
#include <stdlib.h>

#include "args.h"
#include "binding.h"

int gsb_parse(PyObject *args, int extra, int num_players, int max_bot, GsbCall *call) {
    PyObject *seat_obj;
    long long sims;
    double seconds, c, bias;
    int max_rollout, rollout, prior, playout;
    call->extra = NULL;
    int parsed = extra ? PyArg_ParseTuple(args, "O(Lddiiidi)OO", &seat_obj, &sims, &seconds, &c,
                                          &max_rollout, &rollout, &prior, &bias, &playout,
                                          &call->rng_obj, &call->extra)
                       : PyArg_ParseTuple(args, "O(Lddiiidi)O", &seat_obj, &sims, &seconds, &c,
                                          &max_rollout, &rollout, &prior, &bias, &playout,
                                          &call->rng_obj);
    if (!parsed) return -1;
    if (arg_int(seat_obj, 0, num_players - 1, "seat", &call->seat) < 0)
        return -1;
    const char *problem = NULL;
    if (sims < 0) problem = "sims must be >= 0 (0: no simulation budget)";
    else if (!(seconds >= 0 && seconds <= 3600)) problem = "seconds must be in 0..3600";
    else if (sims == 0 && seconds == 0) problem = "a search needs sims > 0 or seconds > 0";
    else if (!(c >= 0 && isfinite(c))) problem = "c must be a finite number >= 0";
    else if (!(bias >= 0 && isfinite(bias))) problem = "bias must be a finite number >= 0";
    else if (max_rollout < 0) problem = "max_rollout must be >= 0";
    else if (rollout < -1) problem = "rollout must be >= 0 (or -1: to the end)";
    if (problem) {
        PyErr_Format(PyExc_ValueError, "search: %s", problem);
        return -1;
    }
    if (prior < 0 || prior > max_bot || playout < 0 || playout > max_bot) {
        PyErr_Format(PyExc_ValueError, "search: %s must be 0 (none) or 1..%d",
                     prior < 0 || prior > max_bot ? "prior" : "playout", max_bot);
        return -1;
    }
    GsOptions options = {sims, seconds, c, max_rollout, rollout, prior, bias, playout};
    call->options = options;
    return 0;
}

int gsb_turn(GsbCall *call, int over, int actor) {
    if (over) {
        PyErr_SetString(PyExc_ValueError, "search: the game is over, there is no decision");
        return -1;
    }
    if (call->seat != actor) {
        PyErr_Format(PyExc_ValueError, "search: seat %ld is not the seat to act (%d)", call->seat,
                     actor);
        return -1;
    }
    if (rng_from_tuple(call->rng_obj, &call->rng) < 0) return -1;
    if (!call->rng.present) {
        PyErr_SetString(PyExc_ValueError, "search: the search needs its generator");
        return -1;
    }
    return 0;
}

PyObject *gsb_run(GsbCall *call, const GsGame *game, const void *root, GsbRun run,
                  const void *data, const char *apply_failed) {
    size_t n = (size_t)game->max_actions;
    int16_t *root_action = malloc(n * sizeof *root_action);
    int32_t *root_visits = malloc(n * sizeof *root_visits);
    double *root_mean = malloc(n * sizeof *root_mean);
    PyObject *out = NULL;
    if (!root_action || !root_visits || !root_mean) {
        PyErr_NoMemory();
        goto done;
    }
    GsResult result = {-1, 0, 0, 0, root_action, root_visits, root_mean};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run ? run(root, (int)call->seat, &call->options, data, &call->rng, &result)
                 : gs_search(game, root, (int)call->seat, &call->options, &call->rng, &result);
    Py_END_ALLOW_THREADS
    if (status == GS_NO_MEMORY) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == GS_APPLY_FAILED && apply_failed) {
        PyErr_SetString(PyExc_RuntimeError, apply_failed);
        goto done;
    }
    if (status != GS_OK) {
        PyErr_Format(PyExc_RuntimeError, "search: failed (status %d)", status);
        goto done;
    }
    PyObject *stats = PyTuple_New(result.n_root);
    if (!stats) goto done;
    for (int i = 0; i < result.n_root; i++) {
        PyObject *item = Py_BuildValue("(iid)", root_action[i], root_visits[i], root_mean[i]);
        if (!item) {
            Py_DECREF(stats);
            goto done;
        }
        PyTuple_SET_ITEM(stats, i, item);
    }
    out = Py_BuildValue("(iLiNN)", result.action, (long long)result.simulations, result.nodes,
                        rng_to_tuple(&call->rng), stats);
done:
    free(root_action);
    free(root_visits);
    free(root_mean);
    return out;
}

int gsb_seat_arg(PyObject *args, int num_players, long *seat) {
    PyObject *seat_obj;
    if (!PyArg_ParseTuple(args, "O", &seat_obj)) return -1;
    return arg_int(seat_obj, 0, num_players - 1, "seat", seat);
}

int gsb_seat_rng_args(PyObject *args, int num_players, long *seat, Rng *rng,
                      const char *missing) {
    PyObject *seat_obj, *rng_obj;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &rng_obj)) return -1;
    if (arg_int(seat_obj, 0, num_players - 1, "seat", seat) < 0)
        return -1;
    if (rng_from_tuple(rng_obj, rng) < 0) return -1;
    if (!rng->present) {
        PyErr_SetString(PyExc_ValueError, missing);
        return -1;
    }
    return 0;
}

int gsb_rng_arg(PyObject *args, Rng *rng, const char *missing) {
    PyObject *rng_obj;
    if (!PyArg_ParseTuple(args, "O", &rng_obj)) return -1;
    if (rng_from_tuple(rng_obj, rng) < 0) return -1;
    if (!rng->present) {
        PyErr_SetString(PyExc_ValueError, missing);
        return -1;
    }
    return 0;
}

int gsb_bot_rng(PyObject *rng_obj, int over, Rng *rng) {
    if (rng_from_tuple(rng_obj, rng) < 0) return -1;
    if (over) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no bot has a decision to make");
        return -1;
    }
    if (!rng->present) {
        PyErr_SetString(PyExc_ValueError, "a bot needs its generator");
        return -1;
    }
    return 0;
}

PyObject *gsb_float_list(const double *values, int n) {
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *value = PyFloat_FromDouble(values[i]);
        if (!value) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, value);
    }
    return out;
}
