/* engines/registry.c - every engine, by name. Adding an engine: one file, one line here. */
#include "engines/engine_impl.h"

extern const ttt_engine_vtable ttt_engine_minimax;
extern const ttt_engine_vtable ttt_engine_random;
extern const ttt_engine_vtable ttt_engine_table;

const ttt_engine_vtable *const ttt_engine_registry[] = {
    &ttt_engine_minimax,
    &ttt_engine_random,
    &ttt_engine_table,
};

const int ttt_engine_registry_size = (int)(sizeof ttt_engine_registry / sizeof ttt_engine_registry[0]);
