#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *tu_vectors_dir(void)
{
    const char *env = getenv("CCNX_VECTORS");
    return env != NULL && env[0] != '\0' ? env : CCNX_VECTORS_DIR;
}

static void read_in(const char *dir, const char *name, struct ccnx_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ccnx_buf_reset(b);
    if (ccnx_buf_read_file(b, path) != 0) {
        fail_msg("cannot read %s", path);
    }
}

void tu_read_vector(const char *name, struct ccnx_buf *b)
{
    read_in(tu_vectors_dir(), name, b);
}

void tu_read_data(const char *name, struct ccnx_buf *b)
{
    read_in(CCNX_TEST_DATA_DIR, name, b);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **tu_list_vectors(const char *suffix, size_t *count)
{
    DIR *d = opendir(tu_vectors_dir());
    if (d == NULL) {
        fail_msg("cannot open vectors folder %s", tu_vectors_dir());
    }
    size_t n = 0, cap = 16, sl = strlen(suffix);
    char **list = malloc(cap * sizeof *list);
    assert_non_null(list);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0) {
            continue;
        }
        if (n == cap) {
            cap *= 2;
            list = realloc(list, cap * sizeof *list);
            assert_non_null(list);
        }
        list[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(list, n, sizeof *list, cmp_str);
    *count = n;
    return list;
}

void tu_free_list(char **list, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(list[i]);
    }
    free(list);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

void tu_hex(const char *hex, struct ccnx_buf *b)
{
    int hi = -1;
    ccnx_buf_reset(b);
    for (const char *p = hex; *p != '\0'; p++) {
        int v = hexval((unsigned char)*p);
        if (v < 0) {
            continue;
        }
        if (hi < 0) {
            hi = v;
        } else {
            ccnx_buf_append_byte(b, (uint8_t)(hi * 16 + v));
            hi = -1;
        }
    }
    assert_int_equal(hi, -1);
}

int tu_remove_files(const char *dir, const char *const *names, size_t n)
{
    char path[4096];
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        rc = remove(path) == 0 ? rc : -1;
    }
    return rmdir(dir) == 0 ? rc : -1;
}
