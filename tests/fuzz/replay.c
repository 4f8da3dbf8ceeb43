/* Runs a libFuzzer target's LLVMFuzzerTestOneInput on files, without libFuzzer: every
 * committed seed and every input that once crashed (corpus/TARGET/regress-*) is replayed by
 * `meson test` in every build (gcc, ASan+UBSan), so a fixed crash stays fixed even where
 * clang is missing. TAP: one test per file; a crash or broken invariant aborts the program,
 * which the harness reports as a failure.
 *
 *   replay DIR_OR_FILE...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path, int n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("not ok %d - %s: cannot open\n", n, path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  uint8_t *buf = malloc(len > 0 ? (size_t)len : 1);
  size_t got = buf ? fread(buf, 1, (size_t)len, f) : 0;
  fclose(f);
  if (!buf || got != (size_t)len) {
    free(buf);
    printf("not ok %d - %s: cannot read\n", n, path);
    return 1;
  }
  fflush(stdout);
  LLVMFuzzerTestOneInput(buf, got);
  free(buf);
  printf("ok %d - %s\n", n, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
  return 0;
}

/* The files to replay: each argument, or the regular files of each directory, sorted. */
static size_t collect(int argc, char **argv, char ***out) {
  size_t n = 0, cap = 64;
  char **v = malloc(cap * sizeof *v);
  for (int i = 1; v && i < argc; i++) {
    struct stat st;
    DIR *d = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? opendir(argv[i]) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
      if (e->d_name[0] == '.' || stat(p, &st) || !S_ISREG(st.st_mode))
        continue;
      if (n == cap && !(v = realloc(v, (cap *= 2) * sizeof *v)))
        break;
      v[n++] = strdup(p);
    }
    if (d)
      closedir(d);
    else if (v && (n < cap || (v = realloc(v, (cap *= 2) * sizeof *v))))
      v[n++] = strdup(argv[i]);
  }
  if (v)
    qsort(v, n, sizeof *v, cmp);
  *out = v;
  return v ? n : 0;
}

int main(int argc, char **argv) {
  char **files;
  size_t n = collect(argc, argv, &files);
  printf("1..%zu\n", n);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    bad |= run_file(files[i], (int)i + 1);
    free(files[i]);
  }
  free(files);
  return bad;
}
