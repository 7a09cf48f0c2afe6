/* The games' ``search`` binding written once (gsearch_binding.c): clockwork_module.c,
 * australia_module.c and nippon_module.c parse and check the same arguments, refuse a finished
 * game, a seat not to act and a missing generator with the same messages, run the generic ISMCTS
 * (gsearch.h) with the GIL released and build the same result through these three steps; a game
 * with more to check (Nippon's bot weights) does it between the first two, and one with its own
 * entry point (ni_search) passes it as ``run``. Also the small pieces the games' ``view``,
 * ``determinize``, ``evaluate``, ``rollout_action`` and ``bot_action`` share. */
#ifndef AIRSHIPS_GSEARCH_BINDING_H
#define AIRSHIPS_GSEARCH_BINDING_H
#include <Python.h>

#include "gsearch.h"
#include "rng.h"

/* One call of ``search(seat, (sims, seconds, c, max_rollout, rollout, prior, bias, playout),
 * rng_state[, extra])``, parsed. */
typedef struct {
    long seat;
    GsOptions options;
    PyObject *rng_obj; /* borrowed from the arguments */
    PyObject *extra;   /* borrowed: the argument after rng_state (when asked for), else NULL */
    Rng rng;           /* read by gsb_turn */
} GsbCall;

/* Parse the arguments (one more, ``extra``, when ``extra`` is set) and check the seat (an int,
 * not a bool: arg_int) against ``num_players`` and the options (prior and playout bot codes
 * 0..max_bot); 0, or -1 with the error set ("search: ..." for the options). */
int gsb_parse(PyObject *args, int extra, int num_players, int max_bot, GsbCall *call);
/* Refuse a finished game, a seat not ``actor``, and a missing generator; reads the generator
 * into ``call->rng``; 0 or -1. */
int gsb_turn(GsbCall *call, int over, int actor);

/* A game's own search entry point, in place of gs_search(game, ...); ``data`` passed through. */
typedef int (*GsbRun)(const void *root, int seat, const GsOptions *options, const void *data,
                      Rng *rng, GsResult *result);
/* Search ``root`` (the caller's private copy: the GIL is released while ``run``, or
 * gs_search(game, ...) when NULL, runs) and build (action, simulations, nodes, rng_state after,
 * ((action, visits, mean), ...)); ``game->max_actions`` sizes the root's report;
 * ``apply_failed`` is the RuntimeError of GS_APPLY_FAILED (NULL: the generic "failed (status
 * 4)"). NULL with the error set on failure. */
PyObject *gsb_run(GsbCall *call, const GsGame *game, const void *root, GsbRun run,
                  const void *data, const char *apply_failed);

/* -- the other wrappers' shared pieces ------------------------------------------------------ */
/* ``(seat)`` checked with arg_int against ``num_players``; 0 or -1. */
int gsb_seat_arg(PyObject *args, int num_players, long *seat);
/* ``(seat, rng_state)``: the seat as gsb_seat_arg, the generator, which must be present (else
 * ValueError ``missing``); 0 or -1. */
int gsb_seat_rng_args(PyObject *args, int num_players, long *seat, Rng *rng,
                      const char *missing);
/* ``(rng_state)`` with a generator present (else ValueError ``missing``); 0 or -1. */
int gsb_rng_arg(PyObject *args, Rng *rng, const char *missing);
/* A bot's generator from ``rng_obj``, refusing a finished game (``over``) and a missing
 * generator; 0 or -1. */
int gsb_bot_rng(PyObject *rng_obj, int over, Rng *rng);
/* A new list of ``n`` floats (a game's values per seat); NULL on error. */
PyObject *gsb_float_list(const double *values, int n);

#endif
