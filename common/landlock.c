/* Landlock (landlock.h) through its three system calls. The constants are the kernel's ABI,
 * spelled here so that a system whose headers predate a version still uses what its kernel
 * has (Debian 12's headers stop at ABI 3; the kernel under them may be newer). */
#include "common/landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

enum { CREATE_RULESET_VERSION = 1, RULE_PATH_BENEATH = 1 };

/* File-system rights, by the ABI version that brought them. */
#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_ABI1 ((1ULL << 13) - 1) /* execute .. make_sym */
#define FS_REFER (1ULL << 13)      /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14)   /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15)  /* ABI 5 */
#define FS_FILE_ONLY (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)
#define NET_TCP 3ULL   /* bind, connect (ABI 4) */
#define SCOPE_ALL 3ULL /* abstract unix sockets, signals (ABI 6) */

/* struct landlock_ruleset_attr as of ABI 6; shorter sizes are what older kernels take. */
typedef struct ll_attr {
  uint64_t fs, net, scoped;
} ll_attr;

typedef struct __attribute__((packed)) ll_beneath {
  uint64_t allowed;
  int32_t parent_fd;
} ll_beneath;

static int abi_cached = -1;
static pthread_once_t abi_once = PTHREAD_ONCE_INIT;

static void probe(void) {
  long v = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
  abi_cached = v > 0 ? (int)v : 0;
}

int upk_landlock_abi(void) {
  const char *off = getenv("UPK_TEST_NO_LANDLOCK");
  if (off && !strcmp(off, "1"))
    return 0;
  pthread_once(&abi_once, probe);
  return abi_cached;
}

static uint64_t fs_rights(int abi) {
  uint64_t r = FS_ABI1;
  if (abi >= 2)
    r |= FS_REFER;
  if (abi >= 3)
    r |= FS_TRUNCATE;
  if (abi >= 5)
    r |= FS_IOCTL_DEV;
  return r;
}

/* One path beneath which `allowed` holds; a missing path is skipped (0). */
static int add_path(int fd, const char *path, uint64_t allowed) {
  int at = open(path, O_PATH | O_CLOEXEC);
  if (at < 0)
    return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0 : -errno;
  struct stat st;
  if (fstat(at, &st) == 0 && !S_ISDIR(st.st_mode))
    allowed &= FS_FILE_ONLY; /* the kernel refuses directory rights on a file */
  ll_beneath b = {.allowed = allowed, .parent_fd = at};
  int rc = syscall(SYS_landlock_add_rule, fd, RULE_PATH_BENEATH, &b, 0) ? -errno : 0;
  close(at);
  return rc;
}

int upk_landlock_ruleset(const upk_landlock_spec *s) {
  int abi = upk_landlock_abi();
  if (abi <= 0)
    return -ENOSYS;
  uint64_t all = fs_rights(abi);
  ll_attr a = {.fs = all, .net = abi >= 4 ? NET_TCP : 0, .scoped = abi >= 6 ? SCOPE_ALL : 0};
  size_t size = abi >= 6 ? sizeof a : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  int fd = (int)syscall(SYS_landlock_create_ruleset, &a, size, 0);
  if (fd < 0)
    return -errno;
  int rc = 0;
  uint64_t ro = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
  for (size_t i = 0; !rc && i < s->n_ro; i++)
    rc = add_path(fd, s->ro[i], ro & all);
  for (size_t i = 0; !rc && i < s->n_rw; i++)
    rc = add_path(fd, s->rw[i], all);
  if (rc) {
    close(fd);
    return rc;
  }
  return fd;
}

int upk_landlock_enter(int fd) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    return -errno;
  return syscall(SYS_landlock_restrict_self, fd, 0) ? -errno : 0;
}
