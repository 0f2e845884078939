/* Runs a fuzz target over every file in the folders (or files) named on the
 * command line, so the corpus is exercised by any compiler under ctest.
 * A missing folder is skipped with a note; a crash fails the test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ccnx/buf.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t run_file(const char *path)
{
    struct ccnx_buf b = CCNX_BUF_INIT;
    if (ccnx_buf_read_file(&b, path) != 0) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(1);
    }
    /* Copy into an exact-size allocation so ASan sees reads past the end. */
    uint8_t *exact = malloc(b.len ? b.len : 1);
    if (exact == NULL) {
        exit(1);
    }
    if (b.len) {
        memcpy(exact, b.data, b.len);
    }
    LLVMFuzzerTestOneInput(exact, b.len);
    /* Every prefix too: truncated input is the most common malformation. */
    for (size_t cut = 0; cut < b.len && cut < 4096; cut += 1 + cut / 8) {
        LLVMFuzzerTestOneInput(exact, cut);
    }
    free(exact);
    ccnx_buf_free(&b);
    return 1;
}

static size_t run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s not found, skipped\n", path);
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (d == NULL) {
        return 0;
    }
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        n += run_path(sub);
    }
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        n += run_path(argv[i]);
    }
    printf("replayed %zu inputs\n", n);
    return n > 0 ? 0 : 1;
}
