/* engines/registry.c - every engine, by name. Adding an engine: one file, one line here. */
#include "engines/engine_impl.h"

extern const ttt_engine_vtable ttt_engine_minimax;
extern const ttt_engine_vtable ttt_engine_montecarlo;
extern const ttt_engine_vtable ttt_engine_mcts;
extern const ttt_engine_vtable ttt_engine_heuristic;
extern const ttt_engine_vtable ttt_engine_table;
extern const ttt_engine_vtable ttt_engine_learner;
extern const ttt_engine_vtable ttt_engine_random;
extern const ttt_engine_vtable ttt_engine_external;
extern const ttt_engine_vtable ttt_engine_gomoku;

const ttt_engine_vtable *const ttt_engine_registry[] = {
    &ttt_engine_minimax,   &ttt_engine_montecarlo, &ttt_engine_mcts,
    &ttt_engine_heuristic, &ttt_engine_table,      &ttt_engine_learner,
    &ttt_engine_random,    &ttt_engine_external,   &ttt_engine_gomoku,
};

const int ttt_engine_registry_size = (int)(sizeof ttt_engine_registry / sizeof ttt_engine_registry[0]);
