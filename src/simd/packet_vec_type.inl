/* SPDX-License-Identifier: MIT */
/* Template: the packet ray casts on one vector type (PK_W lanes of PK_S),
 * for src/simd/packet_vec.inl, which defines the vector macros before each
 * inclusion (PK_NAME, PK_S, PK_W, PK_V, PK_M, PK_RAYT, PK_HITT,
 * PK_SCALAR_TRI, PK_EPS, PK_MAXR, PK_MINR; PL, PS1, PADD, PSUB, PMUL, PDIV, PMIN,
 * PMAX, PABS, PSTOREU, PCMP, PBLEND, MAND, MOR, MINT). This file undefines
 * them all at its end. */
#define PLT(a, b) PCMP((a), (b), _CMP_LT_OQ)
#define PLE(a, b) PCMP((a), (b), _CMP_LE_OQ)
#define PGT(a, b) PCMP((a), (b), _CMP_GT_OQ)
#define PGE(a, b) PCMP((a), (b), _CMP_GE_OQ)
#define PEQ(a, b) PCMP((a), (b), _CMP_EQ_OQ)

/* The end of the box test from the entry and exit parameters en, ex of
 * PK_W lanes (the end of prox_detail_rc_slab3): stores the entry parameters
 * in tn and returns the hit mask. a <= b + 4 eps |b| && a < inf is
 * evaluated as a <= min(max, b + 4 eps |b|) (max the largest finite real),
 * which has the same truth in every case: min returns its second operand
 * when one is NaN, and a <= max is a < inf for a not NaN. */
PK_INLINE int PK_NAME(prox_pk_box_end)(const PK_RAYT *r, PK_V en, PK_V ex, PK_S *tn) {
  PK_V tmax = PS1(r->tmax);
  PK_V a = PMAX(en, PS1(r->tmin)), b = PMIN(ex, tmax);
  PSTOREU(tn, PMIN(a, tmax));
  return MINT(PLE(a, PMIN(PS1((PK_S)PK_MAXR), PADD(b, PMUL(PS1((PK_S)4.0 * PK_EPS), PABS(b))))));
}

/* The boxes lo/hi (axis a at offset a * stride) of PK_W lanes, any slab
 * modes: the operations of prox_detail_rc_slab3 lane by lane. Returns the
 * hit mask and stores the entry parameters in tn. */
PK_INLINE int PK_NAME(prox_pk_box_gen1)(const PK_RAYT *r, const PK_S *lo, const PK_S *hi,
                                        size_t stride, PK_S *tn) {
  PK_V t0[3], t1[3];
  PK_V inf = PS1((PK_S)INFINITY), ninf = PS1((PK_S)-INFINITY);
  int i;
  for (i = 0; i < 3; ++i) {
    PK_V L = PL(lo + (size_t)i * stride), H = PL(hi + (size_t)i * stride);
    PK_V o = PS1(r->org[i]), x, y;
    if (r->mode[i] == 1) {
      /* Zero direction: the whole line or nothing (no 0 * inf). */
      PK_M in = MAND(PLE(L, o), PLE(o, H));
      t0[i] = PBLEND(inf, ninf, in);
      t1[i] = PBLEND(ninf, inf, in);
      continue;
    }
    if (r->mode[i] == 0) {
      PK_V iv = PS1(r->inv[i]);
      x = PMUL(PSUB(L, o), iv);
      y = PMUL(PSUB(H, o), iv);
    } else {
      PK_V dv = PS1(r->dir[i]);
      x = PDIV(PSUB(L, o), dv);
      y = PDIV(PSUB(H, o), dv);
    }
    if (r->inv[i] < 0) {
      t0[i] = y;
      t1[i] = x;
    } else {
      t0[i] = x;
      t1[i] = y;
    }
  }
  return PK_NAME(prox_pk_box_end)(r, PMAX(PMAX(t0[0], t0[1]), t0[2]),
                                  PMIN(PMIN(t1[0], t1[1]), t1[2]), tn);
}

/* prox_pk_box_gen1 on nv vectors (lanes h PK_W.. for h < nv), out of line:
 * the caller's common case then needs no stack frame. */
static __attribute__((noinline)) int PK_NAME(prox_pk_box_gen)(const PK_RAYT *r, const PK_S *lo,
                                                              const PK_S *hi, size_t stride,
                                                              PK_S *tn, int nv) {
  int h, mask = 0;
  for (h = 0; h < nv; ++h)
    mask |= PK_NAME(prox_pk_box_gen1)(r, lo + h * PK_W, hi + h * PK_W, stride, tn + h * PK_W)
            << (h * PK_W);
  return mask;
}

/* The boxes lo/hi of nv * PK_W lanes (nv 1 or 2; vector h holds lanes
 * h PK_W..): the values of prox_pk_box_gen. The common case, every axis
 * multiplied by its reciprocal, is done here with the ray's values
 * broadcast once for all vectors; the near and far planes are chosen by
 * the sign of 1 / d as pointers, without a branch (the sign changes from
 * ray to ray); and L - o is evaluated as (-o) + L, the same value in every
 * case (IEEE subtraction is the addition of the negation, and addition
 * commutes), so that the box's load can be an operand of the addition
 * (gcc folds it; clang turns the sum back into L - o). */
PK_INLINE int PK_NAME(prox_pk_box)(const PK_RAYT *r, const PK_S *lo, const PK_S *hi, size_t stride,
                                   PK_S *tn, int nv) {
  PK_V en[2], ex[2];
  int i, h, mask = 0;
  if (r->mode[0] | r->mode[1] | r->mode[2])
    return PK_NAME(prox_pk_box_gen)(r, lo, hi, stride, tn, nv);
  for (i = 0; i < 3; ++i) {
    /* lo and hi swapped when 1 / d < 0, by a mask (compilers branch on a
     * conditional choice of pointers). */
    uintptr_t swap = ((uintptr_t)lo ^ (uintptr_t)hi) & ((uintptr_t)0 - (uintptr_t)(r->inv[i] < 0));
    const PK_S *np = (const PK_S *)((uintptr_t)lo ^ swap) + (size_t)i * stride;
    const PK_S *fp = (const PK_S *)((uintptr_t)hi ^ swap) + (size_t)i * stride;
    PK_V no = PS1(-r->org[i]), iv = PS1(r->inv[i]);
    for (h = 0; h < nv; ++h) {
      /* en = max(max(n0, n1), n2), ex = min(min(f0, f1), f2). */
      PK_V n = PMUL(PADD(no, PL(np + h * PK_W)), iv);
      PK_V f = PMUL(PADD(no, PL(fp + h * PK_W)), iv);
      en[h] = i ? PMAX(en[h], n) : n;
      ex[h] = i ? PMIN(ex[h], f) : f;
    }
  }
  for (h = 0; h < nv; ++h)
    mask |= PK_NAME(prox_pk_box_end)(r, en[h], ex[h], tn + h * PK_W) << (h * PK_W);
  return mask;
}

/* The triangles at v (vertex k, axis a of lane i at v[(3 k + a) stride +
 * i]) of PK_W lanes, lanes lane0.. of hit: the fast path of
 * prox_raycast_triangle (ray space, edge functions with their error bound);
 * lanes it cannot certify go to the scalar kernel. Returns the hit mask,
 * shifted to lane0. */
static int PK_NAME(prox_pk_tri)(const PK_RAYT *r, const PK_S *v, size_t stride, PK_HITT *hit,
                                int lane0) {
  PK_V X[3], Y[3], Z[3], M[3], w[3], B[3], P1[3], P2[3], zero = PS1((PK_S)0), det, num, t;
  PK_V sx = PS1(r->sx), sy = PS1(r->sy), sz = PS1(r->sz);
  PK_V ox = PS1(r->org[r->kx]), oy = PS1(r->org[r->ky]), oz = PS1(r->org[r->kz]);
  PK_M pos[3], neg[3];
  int k, certain, hitc, hard, inr, mask, unc, i, mixed;
  for (k = 0; k < 3; ++k) {
    const PK_S *base = v + (size_t)(3 * k) * stride;
    PK_V px = PSUB(PL(base + (size_t)r->kx * stride), ox);
    PK_V py = PSUB(PL(base + (size_t)r->ky * stride), oy);
    PK_V pz = PSUB(PL(base + (size_t)r->kz * stride), oz);
    M[k] = PMAX(PMAX(PABS(px), PABS(py)), PABS(pz));
    X[k] = PSUB(px, PMUL(sx, pz));
    Y[k] = PSUB(py, PMUL(sy, pz));
    Z[k] = PMUL(sz, pz);
  }
  for (k = 0; k < 3; ++k) {
    /* w[k]: the edge opposite vertex k, from P = V[k+1] to Q = V[k+2]. */
    int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
    PK_V e;
    P1[k] = PMUL(X[p], Y[q]);
    P2[k] = PMUL(Y[p], X[q]);
    e = PSUB(P1[k], P2[k]);
    PK_V bd =
        PADD(PMUL(PS1((PK_S)48.0 * PK_EPS), PMUL(M[p], M[q])), PS1((PK_S)4.0 * PK_MINR * PK_EPS));
    pos[k] = PGT(e, bd);
    neg[k] = PLT(e, PSUB(zero, bd));
    w[k] = e;
    B[k] = bd;
  }
  certain = MINT(MOR(pos[0], neg[0])) & MINT(MOR(pos[1], neg[1])) & MINT(MOR(pos[2], neg[2]));
  if (~certain & ((1 << PK_W) - 1)) {
    /* The kernel's second bound (prox_detail_rc_edge_bound2, its
     * operations lane by lane) where the first leaves a sign open: it
     * settles most of them (a triangle far from the ray's origin); lanes
     * still open go to the scalar kernel below, which evaluates both. */
    PK_V rmin = PS1(PK_MINR), c3 = PS1((PK_S)3.0 * PK_EPS);
    PK_V c32 = PS1((PK_S)32.0 * PK_EPS * PK_EPS), cmin = PS1((PK_S)8.0 * PK_MINR * PK_EPS);
    for (k = 0; k < 3; ++k) {
      int p = k == 2 ? 0 : k + 1, q = p == 2 ? 0 : p + 1;
      PK_V bd =
          PROX_RC_BOUND2_V(X[p], Y[p], M[p], X[q], Y[q], M[q], P1[k], P2[k], rmin, c3, c32, cmin);
      pos[k] = MOR(pos[k], PGT(w[k], bd));
      neg[k] = MOR(neg[k], PLT(w[k], PSUB(zero, bd)));
    }
    certain = MINT(MOR(pos[0], neg[0])) & MINT(MOR(pos[1], neg[1])) & MINT(MOR(pos[2], neg[2]));
  }
  hitc = MINT(MAND(MAND(pos[0], pos[1]), pos[2])) | MINT(MAND(MAND(neg[0], neg[1]), neg[2]));
  det = PADD(PADD(w[0], w[1]), w[2]);
  num = PADD(PADD(PMUL(w[0], Z[0]), PMUL(w[1], Z[1])), PMUL(w[2], Z[2]));
  t = PDIV(num, det);
  /* The hits whose quotient prox_raycast_triangle does not trust (much
   * cancellation in the weights, or a quotient that overflowed or lost
   * digits to underflow: PROX_DETAIL_RC_QMIN, PROX_DETAIL_RC_RMAX) go to
   * it: its test in its order of operations, in one mask (the smaller of
   * |num| and |det| is NaN, or is taken for it, exactly where one of the
   * two comparisons fails; a NaN t fails the last). */
  hard = 0;
  if (hitc) {
    PK_V can = PADD(PADD(PADD(PABS(P1[0]), PABS(P2[0])), PADD(PABS(P1[1]), PABS(P2[1]))),
                    PADD(PABS(P1[2]), PABS(P2[2])));
    hard = MINT(MOR(MOR(PCMP(PMIN(PABS(num), PABS(det)), PS1((PK_S)64.0 * PK_MINR), _CMP_NGE_UQ),
                        PCMP(PABS(t), PS1((PK_S)INFINITY), _CMP_NLT_UQ)),
                    PGT(can, PMUL(PS1((PK_S)PROX_DETAIL_RC_RMAX), PABS(det)))));
  }
  inr = MINT(
      MAND(MAND(PGE(t, PS1(r->tmin)), PLE(t, PS1(r->tmax))), PLT(PABS(t), PS1((PK_S)INFINITY))));
  unc = (~certain | (hitc & hard)) & ((1 << PK_W) - 1);
  /* Hits with vertices on both sides of the origin along the ray (not all
   * three z > 0, nor all < 0), whose t may have the wrong sign
   * (prox_detail_rc_t_near0, in its order of operations), go to the
   * scalar kernel, which decides the sign exactly. */
  mixed = ~(MINT(MAND(MAND(PGT(Z[0], zero), PGT(Z[1], zero)), PGT(Z[2], zero))) |
            MINT(MAND(MAND(PLT(Z[0], zero), PLT(Z[1], zero)), PLT(Z[2], zero))));
  if (hitc & ~hard & certain & mixed) {
    PK_V e4 = PS1((PK_S)4.0 * PK_EPS), e = zero;
    for (k = 0; k < 3; ++k)
      e = PADD(e, PMUL(PADD(B[k], PMUL(e4, PABS(w[k]))), PABS(Z[k])));
    unc |= hitc & ~hard & certain & mixed & MINT(PLE(PABS(PMUL(t, det)), PMUL(PS1((PK_S)2.0), e)));
  }
  mask = hitc & inr & ~hard & certain & ~unc;
  if (hit) {
    PSTOREU(hit->t + lane0, t);
    PSTOREU(hit->u + lane0, PDIV(w[1], det));
    PSTOREU(hit->v + lane0, PDIV(w[2], det));
  }
  for (i = 0; unc; ++i, unc >>= 1)
    if (unc & 1) mask |= PK_SCALAR_TRI(r, v + i, stride, hit, lane0 + i) << i;
  return mask << lane0;
}

#undef PLT
#undef PLE
#undef PGT
#undef PGE
#undef PEQ
#undef PK_NAME
#undef PK_S
#undef PK_W
#undef PK_RAYT
#undef PK_HITT
#undef PK_SCALAR_TRI
#undef PK_EPS
#undef PK_MAXR
#undef PK_MINR
#undef PK_V
#undef PK_M
#undef PL
#undef PS1
#undef PADD
#undef PSUB
#undef PMUL
#undef PDIV
#undef PMIN
#undef PMAX
#undef PABS
#undef PSTOREU
#undef PCMP
#undef PBLEND
#undef MAND
#undef MOR
#undef MINT
