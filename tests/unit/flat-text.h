/*
 * A flat view as text, for the memory unit tests (tests/unit/flat-text.c):
 * "start-end name[@offset][(ro)]" per range, separated by spaces.
 */
#ifndef TESTS_UNIT_FLAT_TEXT_H
#define TESTS_UNIT_FLAT_TEXT_H

#include "exec/memory.h"

char *flat_text(AddressSpace *as);

#endif
