// The edge's one piece of native code: answers whose body the kernel sends from its own pages.
//
// A write() copies a body into the socket's buffers on every request; for a 150 KB file that copy
// is most of the request's cost, and nginx skips it with sendfile(2). Node has no sendfile for
// sockets, so this addon gives the edge these calls (Linux only):
//
//   sealedCopy(buffer) -> [fd, view]
//     Copies the bytes once into a memfd, seals it (no write, grow or shrink, ever: the kernel
//     enforces what the cache assumes) and maps it privately: `view` is a Buffer over the same
//     pages, so the cache holds one copy that both JavaScript and sendfile read. A write to the
//     view (which nothing should do) would go to a private copy, never to the sealed file.
//
//   sendHead(socketFd, head, fd, length) -> bytes sent, or -errno
//     Sends `head` (a Buffer) with MSG_MORE, then `length` bytes of `fd` from its start
//     with sendfile, on a non-blocking socket: returns as soon as the socket's buffer is full.
//     The caller writes whatever was not sent through Node, so the order of bytes stays right.
//
//   sendBuffer(socketFd, buffer) -> bytes sent, or -errno
//     One non-blocking send() of a ready answer: cheaper than node's Writable stream (a write
//     request, stream state and a tick per write) when nothing is queued on the socket.
//
//   openFileLimit() -> the soft RLIMIT_NOFILE, so the cache keeps its fds well under it.
//
//   dupFd(fd) -> a new descriptor for the same connection (close-on-exec), or -errno
//     Lets one thread give a connection to another: threads share the descriptor table, so the
//     receiver wraps the copy in a socket of its own, and the giver closes only its own number.
//
// It is also the process's only native module, so two calls that are not the edge's live here:
// the C allocator's settings (tuneMalloc, trimMalloc: server/idleMemory.ts) and
//
//   syncFilesystem(fd) -> Promise of 0, or -errno
//     syncfs(2) on the filesystem that holds `fd`, in libuv's thread pool: the blob store makes a
//     batch of new files durable with one call where an fsync per file and per folder forced a
//     journal commit each (server/storage/fs.ts).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static napi_value throw_errno(napi_env env, const char* what) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value int64_value(napi_env env, int64_t value) {
  napi_value result;
  napi_create_int64(env, value, &result);
  return result;
}

static void unmap(napi_env env, void* data, void* hint) {
  size_t length = (size_t)(uintptr_t)hint;
  munmap(data, length);
  int64_t ignored;
  napi_adjust_external_memory(env, -(int64_t)length, &ignored);
}

static napi_value sealed_copy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  void* data;
  size_t length;
  if (napi_get_buffer_info(env, argv[0], &data, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "sealedCopy takes a Buffer");
    return NULL;
  }
  if (length == 0) {
    napi_throw_range_error(env, NULL, "sealedCopy needs at least one byte");
    return NULL;
  }
  int fd = memfd_create("berth-body", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return throw_errno(env, "memfd_create");
  for (size_t done = 0; done < length;) {
    ssize_t n = write(fd, (const char*)data + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return throw_errno(env, "write to memfd");
    }
    done += (size_t)n;
  }
  void* view = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (view == MAP_FAILED) {
    close(fd);
    return throw_errno(env, "mmap");
  }
  // Sealed after the mapping: F_SEAL_WRITE refuses shared writable mappings, not private ones.
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0) {
    munmap(view, length);
    close(fd);
    return throw_errno(env, "sealing the memfd");
  }
  napi_value buffer;
  if (napi_create_external_buffer(env, length, view, unmap, (void*)(uintptr_t)length, &buffer) != napi_ok) {
    munmap(view, length);
    close(fd);
    napi_throw_error(env, NULL, "could not create a Buffer over the memfd");
    return NULL;
  }
  // The pages count against the heap's limits, so the garbage collector knows what a view holds.
  int64_t ignored;
  napi_adjust_external_memory(env, (int64_t)length, &ignored);
  napi_value result, fd_value;
  napi_create_array_with_length(env, 2, &result);
  napi_create_int32(env, fd, &fd_value);
  napi_set_element(env, result, 0, fd_value);
  napi_set_element(env, result, 1, buffer);
  return result;
}

static napi_value send_head(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return NULL;
  int32_t socket_fd, file_fd;
  int64_t length;
  void* head;
  size_t head_length;
  if (napi_get_value_int32(env, argv[0], &socket_fd) != napi_ok || napi_get_buffer_info(env, argv[1], &head, &head_length) != napi_ok ||
      napi_get_value_int32(env, argv[2], &file_fd) != napi_ok || napi_get_value_int64(env, argv[3], &length) != napi_ok || length < 0) {
    napi_throw_type_error(env, NULL, "sendHead takes (socket fd, head Buffer, file fd, length)");
    return NULL;
  }
  int64_t sent = 0;
  // MSG_MORE holds the head back until the body's first pages join it in one segment.
  while ((size_t)sent < head_length) {
    ssize_t n = send(socket_fd, (const char*)head + sent, head_length - (size_t)sent, MSG_MORE | MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return int64_value(env, errno == EAGAIN || errno == EWOULDBLOCK ? sent : -errno);
    sent += n;
  }
  off_t offset = 0;
  while (offset < length) {
    ssize_t n = sendfile(socket_fd, file_fd, &offset, (size_t)(length - offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    // The head is out, so a failure now is the connection's (reset, closed): report it.
    if (n < 0) return int64_value(env, -errno);
    if (n == 0) break;
  }
  return int64_value(env, sent + offset);
}

static napi_value send_buffer(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) return NULL;
  int32_t socket_fd;
  void* data;
  size_t length;
  if (napi_get_value_int32(env, argv[0], &socket_fd) != napi_ok || napi_get_buffer_info(env, argv[1], &data, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "sendBuffer takes (socket fd, Buffer)");
    return NULL;
  }
  size_t sent = 0;
  while (sent < length) {
    ssize_t n = send(socket_fd, (const char*)data + sent, length - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return int64_value(env, errno == EAGAIN || errno == EWOULDBLOCK ? (int64_t)sent : -errno);
    sent += (size_t)n;
  }
  return int64_value(env, (int64_t)sent);
}

static napi_value open_file_limit(napi_env env, napi_callback_info info) {
  (void)info;
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return throw_errno(env, "getrlimit");
  return int64_value(env, limit.rlim_cur == RLIM_INFINITY ? INT64_MAX : (int64_t)limit.rlim_cur);
}

static napi_value boolean_value(napi_env env, int value) {
  napi_value result;
  napi_get_boolean(env, value != 0, &result);
  return result;
}

/*
 * glibc's malloc keeps what a burst allocated (a daily backup, a big upload) for the rest of the
 * process's life: it raises its mmap threshold after each large free, so later large buffers come
 * from the heap and fragment it, and it gives heap pages back only from its top. A fixed threshold
 * sends every block of 128 KB or more to its own mapping, returned at free; two arenas instead of
 * eight per core bound the fragmentation spread over threads. False without glibc.
 */
static napi_value tune_malloc(napi_env env, napi_callback_info info) {
  (void)info;
#ifdef __GLIBC__
  int ok = mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1 && mallopt(M_ARENA_MAX, 2) == 1;
  return boolean_value(env, ok);
#else
  return boolean_value(env, 0);
#endif
}

/* Gives every free page in every arena back to the kernel; true when some were. */
static napi_value trim_malloc(napi_env env, napi_callback_info info) {
  (void)info;
#ifdef __GLIBC__
  return boolean_value(env, malloc_trim(0));
#else
  return boolean_value(env, 0);
#endif
}

static napi_value dup_fd(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  int32_t fd;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    napi_throw_type_error(env, NULL, "dupFd takes a file descriptor");
    return NULL;
  }
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  return int64_value(env, copy < 0 ? -errno : copy);
}

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  int fd;
  int result;
} sync_request;

static void sync_execute(napi_env env, void* data) {
  (void)env;
  sync_request* request = data;
  request->result = syncfs(request->fd) == 0 ? 0 : -errno;
}

static void sync_complete(napi_env env, napi_status status, void* data) {
  sync_request* request = data;
  napi_value value;
  napi_create_int32(env, status == napi_ok ? request->result : -ECANCELED, &value);
  napi_resolve_deferred(env, request->deferred, value);
  napi_delete_async_work(env, request->work);
  free(request);
}

/* The caller keeps `fd` open until the promise settles. */
static napi_value sync_filesystem(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  int32_t fd;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok) {
    napi_throw_type_error(env, NULL, "syncFilesystem takes a file descriptor");
    return NULL;
  }
  sync_request* request = calloc(1, sizeof *request);
  if (request == NULL) return throw_errno(env, "syncFilesystem");
  request->fd = fd;
  napi_value promise, name;
  if (napi_create_promise(env, &request->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "berth:syncfs", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, sync_execute, sync_complete, request, &request->work) != napi_ok) {
    free(request);
    napi_throw_error(env, NULL, "syncFilesystem could not be queued");
    return NULL;
  }
  if (napi_queue_async_work(env, request->work) != napi_ok) {
    napi_delete_async_work(env, request->work);
    free(request);
    napi_throw_error(env, NULL, "syncFilesystem could not be queued");
    return NULL;
  }
  return promise;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor calls[] = {
      {"sealedCopy", NULL, sealed_copy, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sendHead", NULL, send_head, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sendBuffer", NULL, send_buffer, NULL, NULL, NULL, napi_enumerable, NULL},
      {"openFileLimit", NULL, open_file_limit, NULL, NULL, NULL, napi_enumerable, NULL},
      {"tuneMalloc", NULL, tune_malloc, NULL, NULL, NULL, napi_enumerable, NULL},
      {"trimMalloc", NULL, trim_malloc, NULL, NULL, NULL, napi_enumerable, NULL},
      {"dupFd", NULL, dup_fd, NULL, NULL, NULL, napi_enumerable, NULL},
      {"syncFilesystem", NULL, sync_filesystem, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof calls / sizeof calls[0], calls);
  return exports;
}
