/* SPDX-License-Identifier: MIT */
/* Emits the one exported, external definition of every kernel that the
 * public headers define inline (see PROX_INLINE in prox/base.h): with
 * PROX_EMIT_EXTERNAL defined, each C99 inline definition in the headers
 * becomes an `extern inline` definition, which the compiler must emit. Calls
 * a user's translation unit does not inline, and FFI users, resolve to these
 * symbols. Nothing else belongs in this file. */
#define PROX_EMIT_EXTERNAL
#include <prox/prox.h>
