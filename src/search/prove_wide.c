/*
 * search/prove_wide.c - the prover's kernel over 128-bit sets of cells, for boards of 65 to 128 cells (see
 * search/prove_impl.h and search/prove_kernel.h).
 */
#define PROVE_BITS 128
#include "search/prove_kernel.h"
