/* SPDX-License-Identifier: MIT */
/// @file prox.h
/// @brief Umbrella header: includes every public prox header.
///
/// Including the topic headers one by one is equivalent; this one is for
/// convenience and for src/export.c, which emits the exported definition of
/// every kernel the headers below define.
#ifndef PROX_PROX_H
#define PROX_PROX_H

#include "base.h"
#include "vec.h"
#include "primitives.h"
#include "closest.h"
#include "contact.h"
#include "batch.h"
#include "raycast.h"
#include "overlap.h"
#include "packet.h"
#include "mesh.h"
#include "bvh.h"
#include "bvh_ray.h"
#include "topology.h"
#include "sign.h"

#endif /* PROX_PROX_H */
