/* SPDX-License-Identifier: MIT */
/* Private to the closest-point walks (src/mesh/bvh_query_packet.inl): the
 * packet's size and the node step of src/mesh/bvh_query_avx2.c. */
#ifndef PROX_SRC_MESH_BVH_QUERY_PK_H
#define PROX_SRC_MESH_BVH_QUERY_PK_H

#include <prox/bvh.h>

/* Points in a packet (at most 8: the walk keeps a packet's points in a
 * byte mask). */
#define PBQ_PK 8

/* 1 when src/mesh/bvh_query_avx2.c was compiled with AVX2 (else the
 * functions below are never called). */
extern const int prox_detail_pk_ok_avx2;

/* The node step of the packet walk: the squared distances of the PBQ_PK
 * points (px, py, pz) to slot s's box of nd into ds[s] (the operations of
 * prox_bvh_detail_boxd4, lane by lane, so the same values), for each slot s
 * in ms[s] the points of m whose distance is within their bound thr[],
 * as bits (0 for a slot at or past nd->n_child), in key[s] the least of
 * those distances (+inf when none); returned, the slots whose ms is not
 * 0, as bits. */
int prox_detail_pk_node_avx2(const prox_bvh_node *nd, const double *px, const double *py,
                             const double *pz, const double *thr, int m, double (*ds)[PBQ_PK],
                             double *key, int *ms);
int prox_detail_pk_node_avx2f(const prox_bvh_node *nd, const float *px, const float *py,
                              const float *pz, const float *thr, int m, float (*ds)[PBQ_PK],
                              float *key, int *ms);

/* The same step for double packets with AVX-512 (src/mesh/
 * bvh_query_avx512.c): the eight points in one vector; the same values. */
extern const int prox_detail_pk_ok_avx512;
int prox_detail_pk_node_avx512(const prox_bvh_node *nd, const double *px, const double *py,
                               const double *pz, const double *thr, int m, double (*ds)[PBQ_PK],
                               double *key, int *ms);

#endif /* PROX_SRC_MESH_BVH_QUERY_PK_H */
