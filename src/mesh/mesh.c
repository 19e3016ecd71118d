/* SPDX-License-Identifier: MIT */
/* prox_mesh_validate (prox/mesh.h), both precisions. */
#include "mesh_internal.h"

#include <prox/detail/real_double.h>
#include "mesh_validate.inl"
#include <prox/detail/real_end.h>

#include <prox/detail/real_float.h>
#include "mesh_validate.inl"
#include <prox/detail/real_end.h>
