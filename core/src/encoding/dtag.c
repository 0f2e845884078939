#include <ccnx/buf.h>
#include <ccnx/dtag.h>
#include <ccnx/error.h>

#include "ccnb_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ccnx_dtag_name(uint64_t number)
{
    size_t lo = 0, hi = CCNX_DTAG_COUNT;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ccnx_dtag_table[mid].number == number) {
            return ccnx_dtag_table[mid].name;
        }
        if (ccnx_dtag_table[mid].number < number) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

static int name_equals(const char *entry, const char *name, size_t len)
{
    return strncmp(entry, name, len) == 0 && entry[len] == '\0';
}

int64_t ccnx_dtag_lookup(const char *name, size_t len)
{
    for (size_t i = 0; i < CCNX_DTAG_COUNT; i++) {
        if (name_equals(ccnx_dtag_table[i].name, name, len)) {
            return ccnx_dtag_table[i].number;
        }
    }
    return -1;
}

struct ccnx_dtag_dict {
    struct ccnx_dtag_entry *entries;
    size_t count;
    size_t cap;
};

struct ccnx_dtag_dict *ccnx_dtag_dict_create(void)
{
    return calloc(1, sizeof(struct ccnx_dtag_dict));
}

void ccnx_dtag_dict_destroy(struct ccnx_dtag_dict *d)
{
    if (d == NULL) {
        return;
    }
    for (size_t i = 0; i < d->count; i++) {
        free((char *)d->entries[i].name);
    }
    free(d->entries);
    free(d);
}

static int dict_add(struct ccnx_dtag_dict *d, uint32_t number, const char *name, size_t len)
{
    if (d->count == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        struct ccnx_dtag_entry *e = realloc(d->entries, cap * sizeof *e);
        if (e == NULL) {
            return CCNX_E_NOMEM;
        }
        d->entries = e;
        d->cap = cap;
    }
    char *copy = strndup(name, len);
    if (copy == NULL) {
        return CCNX_E_NOMEM;
    }
    d->entries[d->count].number = number;
    d->entries[d->count].name = copy;
    d->count++;
    return 0;
}

/* One csv line: "number,Name[,anything]". Blank lines and '#' comments are skipped. */
static int parse_line(struct ccnx_dtag_dict *d, const char *line)
{
    while (*line == ' ' || *line == '\t') {
        line++;
    }
    if (*line == '\0' || *line == '\n' || *line == '\r' || *line == '#') {
        return 0;
    }
    char *end;
    unsigned long long number = strtoull(line, &end, 10);
    if (end == line || *end != ',' || number > UINT32_MAX) {
        return CCNX_E_VALUE;
    }
    const char *name = end + 1;
    size_t len = strcspn(name, ",\r\n");
    if (len == 0 || len > 255) {
        return CCNX_E_VALUE;
    }
    return dict_add(d, (uint32_t)number, name, len);
}

int ccnx_dtag_dict_load(struct ccnx_dtag_dict *d, const char *path, int *bad_line)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return CCNX_E_IO;
    }
    char line[512];
    int lineno = 0, res = 0;
    while (res == 0 && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        res = parse_line(d, line);
    }
    fclose(f);
    if (res != 0 && bad_line != NULL) {
        *bad_line = lineno;
    }
    return res;
}

const char *ccnx_dtag_dict_name(const struct ccnx_dtag_dict *d, uint64_t number)
{
    for (size_t i = 0; d != NULL && i < d->count; i++) {
        if (d->entries[i].number == number) {
            return d->entries[i].name;
        }
    }
    return ccnx_dtag_name(number);
}

int64_t ccnx_dtag_dict_lookup(const struct ccnx_dtag_dict *d, const char *name, size_t len)
{
    for (size_t i = 0; d != NULL && i < d->count; i++) {
        if (name_equals(d->entries[i].name, name, len)) {
            return d->entries[i].number;
        }
    }
    return ccnx_dtag_lookup(name, len);
}
