/* Numeric flag values (args.h). */
#include "clients/args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int ctl_arg_number(const char *verb, const char *flag, const char *arg, bool whole, double max,
                   double *out) {
  char *end;
  double v = strtod(arg, &end);
  if (end != arg && !*end && isfinite(v) && v > 0 && v <= max && (!whole || v == floor(v))) {
    *out = v;
    return 0;
  }
  fprintf(stderr, "upskillctl %s: %s takes a %s above 0", verb, flag,
          whole ? "whole number" : "number");
  if (max < 1e15)
    fprintf(stderr, " and at most %g", max);
  fprintf(stderr, ", not '%s'\n", arg);
  return -1;
}
