/* ttt/ttt.h - the whole public interface of libttt. */
#ifndef TTT_TTT_H
#define TTT_TTT_H

#include "ttt/common.h"
#include "ttt/rules.h"
#include "ttt/board.h"
#include "ttt/notation.h"
#include "ttt/symmetry.h"
#include "ttt/rng.h"
#include "ttt/engine.h"
#include "ttt/count.h"
#include "ttt/solve.h"
#include "ttt/playout.h"
#include "ttt/table.h"
#include "ttt/hint.h"
#include "ttt/game.h"
#include "ttt/arena.h"
#include "ttt/store.h"
#include "ttt/gomocup.h"
#include "ttt/trace.h"
#include "ttt/certificate.h"
#include "ttt/verify.h"

#endif
