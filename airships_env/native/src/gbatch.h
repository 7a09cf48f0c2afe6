/* A batch written once over a small game interface (gbatch.c): N games stepped in one call with
 * the GIL released, for every game whose core fills a GbGame (clockwork_batch.c,
 * australia_batch.c, nippon_batch.c and Airships' batch.c).
 *
 * Every seat of every game has a controller: 0 a Python seat that learns (the learner), 1..3 the
 * game's native bots (random, greedy, heuristic: played inside the step), 16 + k an external
 * Python policy k (evaluated by the caller in one batched forward). A step applies the given
 * action in every game that waits for a Python seat, then plays the bots' turns until a Python
 * seat must act or the game ends; a game that ends writes its rewards, its final observation (for
 * its learner seat), its scores and its winners, and starts its slot's next episode (auto-reset):
 * new deal, new learner seat, the opponents the caller queued for it.
 *
 * Seeds: episode e of slot i deals from PCG64(SeedSequence(seed, spawn_key=(i, e, 0))), the bot
 * in seat s draws from (i, e, 1 + s) and the learner's seat is uniform_below(players) from
 * (i, e, 7): a slot's games depend on neither the number of slots nor the other slots.
 *
 * ``max_turns`` (GameAEC's): the episode is truncated, rewards 0, once that many actions were
 * played. All output goes into buffers the caller allocated once; nothing is allocated per step.
 * Every method holds the batch's lock from its first check to its last write (taken with the GIL
 * released), so a batch shared between threads is stepped by one call at a time.
 *
 * The Python type of a game's batch is
 *   Batch(num_games, num_players, seed_words, a, b, c, buffers, settings)
 * where (a, b, c) are the game's own arguments (its rules options and tables, named by
 * ``arg_names``, handed to ``parse_config``), buffers the 13 arrays of gbatch.c's BUFFER_NAMES
 * and settings (max_turns (0: none), autoreset, learner seat (-1: random), external policies,
 * the game's setting). A game may order the arguments its own way (``keywords``) and put its
 * setting first (``setting_first``): Airships' Batch(core, num_games, num_players, seed_words,
 * buffers, settings, greedy, heuristic) with settings (reward mode, max_turns, ...).
 *
 * Methods: reset(), step(actions), observe(seats, out) (the observation of seats[i] in game i,
 * -1: zeros), export_game(i), controllers(i); bytes_per_game and obs_size.
 */
#ifndef AIRSHIPS_GBATCH_H
#define AIRSHIPS_GBATCH_H
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

#define GB_MAX_PLAYERS 8
#define GB_MAX_ACTIONS 1024 /* a game's action table fits (gb_register checks) */
#define GB_MAX_GAMES 100000 /* as Airships' batch: a mistaken size is an error, not swap */
#define GB_CONTROL_LEARNER 0
#define GB_BOT_FIRST 1
#define GB_BOT_LAST 3
#define GB_CONTROL_EXTERNAL 16

/* A game, as the batch sees it. States are plain structs of ``state_size`` bytes. */
typedef struct {
    const char *type_name;    /* the Python type's name, "ClockworkBatch" */
    const char *max_constant; /* the module constant holding GB_MAX_GAMES, "CW_BATCH_MAX_GAMES" */
    const char *doc;
    const char *arg_names[3]; /* the keywords of the game's own three arguments */
    /* The constructor's eight keywords in their order (optional: NULL for num_games,
     * num_players, seed_words, the three arg_names, buffers, settings). */
    const char *const *keywords;
    size_t state_size;
    size_t config_size;
    size_t memory_size; /* what a seat's bot keeps between its decisions (0: nothing) */
    int num_actions;
    int min_players, max_players;
    int scores_itemsize;        /* the scores buffer's items: 2 (int16) or 4 (int32) */
    const char *scores_formats; /* their struct formats, "h" or "il" */
    /* The game's own setting, the last of ``settings``: parsed with this format ('d' or 'i'),
     * checked by ``setting_ok`` and described by ``setting_text`` in the error. */
    char setting_format;
    const char *setting_name; /* in the TypeError's list of settings: "threshold" */
    const char *setting_text; /* in the ValueError: "a threshold that is a number" */
    int (*setting_ok)(double value);
    int setting_first; /* the setting opens ``settings`` instead of closing it */
    /* The rules' parameters from the game's three arguments: 0, or -1 with an exception set. */
    int (*parse_config)(PyObject *a, PyObject *b, PyObject *c, int num_players, void *config);
    /* The observation's length for this config and table size; 0 refuses the config (a
     * ValueError, or the exception set). */
    int (*obs_size)(const void *config, int num_players);
    void (*new_game)(void *state, const void *config, int num_players, const Rng *rng);
    int (*is_over)(const void *state);
    /* The game's own turn count (optional): when given, an episode is truncated once it passes
     * ``max_turns`` (Airships' GameAEC counts turns); otherwise after ``max_turns`` actions. */
    int (*turn)(const void *state);
    /* A game that ends truncated without auto-reset is marked over (optional). */
    void (*halt)(void *state);
    int (*actor)(const void *state);
    /* The legal actions, ascending, into ``out`` (num_actions of room); their number. */
    int (*legal_actions)(const void *state, int16_t *out);
    /* Apply a legal action: 0, or non-zero when the core cannot (a data file's limit: the
     * episode ends truncated). */
    int (*apply)(void *state, int action);
    void (*observe)(const void *state, int seat, float *out);
    /* Optional: ``legal_actions``, ``apply`` and ``observe`` reading the batch's config, which
     * equals the config every game of the batch was dealt with; the batch calls each one given
     * instead of its twin. A game that copies its config into every state then reads one copy
     * that stays in the cache instead of a thousand that miss it. */
    int (*legal_actions_shared)(const void *state, const void *config, int16_t *out);
    int (*apply_shared)(void *state, const void *config, int action);
    void (*observe_shared)(const void *state, const void *config, int seat, float *out);
    /* A bot's memory at the start of an episode (optional; memory_size > 0 needs it). */
    void (*reset_memory)(void *memory);
    /* The bot ``bot`` (GB_BOT_FIRST..GB_BOT_LAST) for the seat to act, drawing from ``rng``. */
    int (*bot_action)(const void *state, int bot, const void *config, double setting, Rng *rng,
                      void *memory);
    /* An ended episode's scores (always) and, unless truncated, its rewards and winners (a bit
     * per seat; gb_rewards writes GameAEC's rewards). */
    void (*finish)(const void *state, int num_players, int truncated, double setting,
                   float *rewards, void *scores, uint8_t *winners);
    /* The state as the engine's State.to_dict() fields; NULL on error. */
    PyObject *(*export_dict)(const void *state);
} GbGame;

/* GameAEC's rewards (game_aec.rewards_from) from the totals and the winners (a bit per seat):
 * ``score_mode`` 0 "win": 1/k for each of the k winners, -1 for the others (0 for all without a
 * winner); 1 "score": the margin over the best other seat / ``score_scale``. */
void gb_rewards(int num_players, const double *totals, unsigned winners, int score_mode,
                double score_scale, float *rewards);

/* Add the game's batch type and its GB_MAX_GAMES constant to the module. */
int gb_register(PyObject *module, const GbGame *game);

/* Whole games between copies of one native bot in the core alone (the bots' benchmarks), the
 * GIL released: game g deals from SeedSequence(seed, spawn_key=(g, 0)) and seat s's bot draws
 * from (g, 1 + s); a game stops after ``max_steps`` actions. The decisions made, or -1 with
 * MemoryError set. */
long long gb_bot_games(const GbGame *game, const void *config, int num_players, int bot,
                       double setting, long games, uint32_t seed, long max_steps);

#endif
