/* SPDX-License-Identifier: MIT */
/* Template: the packet ray casts of one precision (prox/packet.h): ray
 * preparation, the portable lane-by-lane code (the scalar level's entry
 * points) and the public functions, which dispatch through the SIMD table
 * (src/simd/dispatch.h). Included twice by src/simd/packet.c, after
 * src/simd/packet_scalar_lane.inl.
 *
 * The portable code evaluates, lane by lane, the operations the vector
 * code (src/simd/packet_vec.inl) evaluates, which are those of the scalar
 * kernels prox_raycast_aabb and prox_raycast_triangle (in the same order):
 * every level gives the same answers. */

void PROX_FN(prox_packet_ray_init)(PROX_FN(prox_packet_ray) * p, const PROX_FN(prox_ray) * ray) {
  PROX_FN(prox_detail_rayspace) rs;
  int a;
  p->ray = *ray;
  p->org[0] = ray->origin.x;
  p->org[1] = ray->origin.y;
  p->org[2] = ray->origin.z;
  p->dir[0] = ray->dir.x;
  p->dir[1] = ray->dir.y;
  p->dir[2] = ray->dir.z;
  p->tmin = ray->tmin;
  p->tmax = PROX_FN(prox_detail_rc_ray_tmax)(ray);
  for (a = 0; a < 3; ++a) {
    /* The three cases of prox_detail_rc_slab. */
    p->inv[a] = 1 / p->dir[a];
    p->mode[a] = PROX_FABS(p->inv[a]) <= PROX_REAL_MAX ? 0 : p->dir[a] == 0 ? 1 : 2;
  }
  p->valid = PROX_FN(prox_detail_rc_ray_ok)(ray);
  p->tri_valid = PROX_FN(prox_detail_rc_rayspace)(ray->origin, ray->dir, &rs) && p->valid;
  p->kx = rs.kx;
  p->ky = rs.ky;
  p->kz = rs.kz;
  p->sx = rs.sx;
  p->sy = rs.sy;
  p->sz = rs.sz;
}

/* One lane of the box test: the operations of prox_raycast_aabb (via
 * prox_detail_rc_slab3) on a valid box. */
static int PROX_FN(prox_pk_box_lane)(const PROX_FN(prox_packet_ray) * r, const PROX_REAL *lo,
                                     const PROX_REAL *hi, size_t stride, PROX_REAL *tnear) {
  PROX_REAL t0[3], t1[3], en, ex, a, b;
  int i;
  for (i = 0; i < 3; ++i) {
    PROX_REAL L = lo[(size_t)i * stride], H = hi[(size_t)i * stride];
    PROX_REAL o = r->org[i], x, y;
    if (r->mode[i] == 1) {
      int in = L <= o && o <= H;
      t0[i] = in ? -PROX_INF : PROX_INF;
      t1[i] = in ? PROX_INF : -PROX_INF;
      continue;
    }
    if (r->mode[i] == 0) {
      x = (L - o) * r->inv[i];
      y = (H - o) * r->inv[i];
    } else {
      x = (L - o) / r->dir[i];
      y = (H - o) / r->dir[i];
    }
    t0[i] = r->inv[i] < 0 ? y : x;
    t1[i] = r->inv[i] < 0 ? x : y;
  }
  en = t0[0];
  if (t0[1] > en) en = t0[1];
  if (t0[2] > en) en = t0[2];
  ex = t1[0] < t1[1] ? t1[0] : t1[1];
  ex = t1[2] < ex ? t1[2] : ex;
  a = en > r->tmin ? en : r->tmin;
  b = ex < r->tmax ? ex : r->tmax;
  *tnear = a < r->tmax ? a : r->tmax;
  return a <= b + PROX_R(4.0) * PROX_EPS * PROX_FABS(b) && a < PROX_INF;
}

static int PROX_FN(prox_pk_boxes)(const PROX_FN(prox_packet_ray) * r, const PROX_REAL *lo,
                                  const PROX_REAL *hi, int n, PROX_REAL *tnear) {
  int i, mask = 0;
  if (!r->valid) return 0;
  for (i = 0; i < n; ++i)
    mask |= PROX_FN(prox_pk_box_lane)(r, lo + i, hi + i, (size_t)n, &tnear[i]) << i;
  return mask;
}

static int PROX_FN(prox_pk_tris)(const PROX_FN(prox_packet_ray) * r, const PROX_REAL *v, int n,
                                 PROX_FN(prox_packet_hit8) * hit) {
  int i, mask = 0;
  if (!r->tri_valid) return 0;
  for (i = 0; i < n; ++i)
    mask |= PROX_FN(prox_pk_tri_lane)(r, v + i, (size_t)n, hit, i) << i;
  return mask;
}

/* The scalar level's entry points. */
static int PROX_FN(prox_pk_scalar_aabb4)(const PROX_FN(prox_packet_ray) * r,
                                         const PROX_FN(prox_box4) * b, PROX_REAL *tnear) {
  return PROX_FN(prox_pk_boxes)(r, &b->lo[0][0], &b->hi[0][0], 4, tnear);
}

static int PROX_FN(prox_pk_scalar_aabb8)(const PROX_FN(prox_packet_ray) * r,
                                         const PROX_FN(prox_box8) * b, PROX_REAL *tnear) {
  return PROX_FN(prox_pk_boxes)(r, &b->lo[0][0], &b->hi[0][0], 8, tnear);
}

static int PROX_FN(prox_pk_scalar_triangle4)(const PROX_FN(prox_packet_ray) * r,
                                             const PROX_FN(prox_tri4) * t,
                                             PROX_FN(prox_packet_hit8) * hit) {
  return PROX_FN(prox_pk_tris)(r, &t->v[0][0][0], 4, hit);
}

static int PROX_FN(prox_pk_scalar_triangle8)(const PROX_FN(prox_packet_ray) * r,
                                             const PROX_FN(prox_tri8) * t,
                                             PROX_FN(prox_packet_hit8) * hit) {
  return PROX_FN(prox_pk_tris)(r, &t->v[0][0][0], 8, hit);
}

/* The public functions: the active level's entry points. */
int PROX_FN(prox_packet_aabb4)(const PROX_FN(prox_packet_ray) * r, const PROX_FN(prox_box4) * b,
                               PROX_REAL tnear[4]) {
  return prox_simd_table_get()->packet->PROX_FN(aabb4)(r, b, tnear);
}

int PROX_FN(prox_packet_aabb8)(const PROX_FN(prox_packet_ray) * r, const PROX_FN(prox_box8) * b,
                               PROX_REAL tnear[8]) {
  return prox_simd_table_get()->packet->PROX_FN(aabb8)(r, b, tnear);
}

int PROX_FN(prox_packet_triangle4)(const PROX_FN(prox_packet_ray) * r, const PROX_FN(prox_tri4) * t,
                                   PROX_FN(prox_packet_hit8) * hit) {
  return prox_simd_table_get()->packet->PROX_FN(triangle4)(r, t, hit);
}

int PROX_FN(prox_packet_triangle8)(const PROX_FN(prox_packet_ray) * r, const PROX_FN(prox_tri8) * t,
                                   PROX_FN(prox_packet_hit8) * hit) {
  return prox_simd_table_get()->packet->PROX_FN(triangle8)(r, t, hit);
}
