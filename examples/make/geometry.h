/* The user's own types: a point and the box that bounds points. */
#ifndef GEOMETRY_H
#define GEOMETRY_H

#include "geometry_macros.h" /* from include/, through "include_dirs" */

typedef struct Point {
  float x, y;
  int id;
} Point;

typedef struct Box {
  float lo[2], hi[2];
} Box;

static inline GEOMETRY_FN Box box_add(Box b, Point p) {
  b.lo[0] = fminf(b.lo[0], p.x);
  b.lo[1] = fminf(b.lo[1], p.y);
  b.hi[0] = fmaxf(b.hi[0], p.x);
  b.hi[1] = fmaxf(b.hi[1], p.y);
  return b;
}

static inline GEOMETRY_FN Box box_merge(Box a, Box b) {
  for (int i = 0; i < 2; i++) {
    a.lo[i] = fminf(a.lo[i], b.lo[i]);
    a.hi[i] = fmaxf(a.hi[i], b.hi[i]);
  }
  return a;
}

#endif
