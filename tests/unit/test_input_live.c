/* test_input_live.c - inputs that change while they are read: a regular
 * file that grows or is truncated after it was opened, a pipe written in
 * small pieces, standard input from a regular file at an offset other
 * than 0.  The input (input.c, zin.c) must read each as read() shows it:
 * the bytes appended after the open, the file's bytes up to its new end
 * (no crash, no error), every byte of the pipe in order, the bytes from
 * the offset on.  The files are larger than the read buffer and than a
 * megabyte, so that these hold for any way of reading a large regular
 * file (a mapping must not fault on the truncated pages nor stop at the
 * size seen at the open). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#include "input.h"

/* Line i of the made-up files: 32 bytes with its '\n', its number in
 * it, so that a line out of place or cut shows. */
enum { LINE_LEN = 32, FILE_LINES = 3 * 1024 * 1024 / LINE_LEN };

static void line_text(unsigned i, char out[LINE_LEN + 1])
{
    snprintf(out, LINE_LEN + 1, "line %09u of the live test\n", i);
}

/* Append lines [from, to) to the file at path (created when from is 0). */
static void write_lines(const char *path, unsigned from, unsigned to)
{
    FILE *f = fopen(path, from ? "ab" : "wb");
    assert_non_null(f);
    char t[LINE_LEN + 1];
    for (unsigned i = from; i < to; i++) {
        line_text(i, t);
        assert_int_equal(fwrite(t, 1, LINE_LEN, f), LINE_LEN);
    }
    assert_int_equal(fclose(f), 0);
}

/* Read the lines of in from line number `first` on (0-based, the line
 * expected next) while at most `max` are read (0: to the end), asserting
 * each is that line whole, or, when `cut_at` (a stream offset) falls in
 * it, its bytes before cut_at; the stream offsets must follow one
 * another from *off.  Returns the lines read; *off is then the offset
 * after the last one. */
static unsigned read_lines(xq_input *in, unsigned first, unsigned max, uint64_t cut_at,
                           uint64_t *off)
{
    xq_raw_line l;
    char t[LINE_LEN + 1];
    unsigned n = 0;
    while ((max == 0 || n < max) && xq_input_line(in, &l) == 1) {
        line_text(first + n, t);
        assert_int_equal(l.offset, *off);
        size_t want = LINE_LEN;
        if (cut_at < *off + LINE_LEN) want = (size_t)(cut_at - *off);
        assert_int_equal(l.raw_len, want);
        assert_memory_equal(l.bytes, t, want);
        *off += l.raw_len;
        n++;
    }
    return n;
}

/* A made-up file of FILE_LINES lines at a fresh path (path: room for
 * 64 bytes), opened as UTF-8 input. */
static xq_input *open_made_file(char path[64])
{
    snprintf(path, 64, "/tmp/xq-live-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_lines(path, 0, FILE_LINES);
    char err[256];
    xq_input *in = xq_input_open(path, XQ_ENC_UTF8, err, sizeof err);
    assert_non_null(in);
    return in;
}

/* in is at its end: no line more, no error; then closed and its file
 * removed. */
static void ends_clean(xq_input *in, const char *path)
{
    xq_raw_line l;
    assert_int_equal(xq_input_line(in, &l), 0);
    assert_string_equal(xq_input_error(in), "");
    xq_input_close(in);
    unlink(path);
}

/* A file appended to after the open (and after part of it was read): the
 * appended lines are read too, after the others. */
static void test_grows(void **state)
{
    (void)state;
    char path[64];
    xq_input *in = open_made_file(path);
    uint64_t off = 0;
    assert_int_equal(read_lines(in, 0, 1000, UINT64_MAX, &off), 1000);
    write_lines(path, FILE_LINES, FILE_LINES + 5000);
    assert_int_equal(read_lines(in, 1000, 0, UINT64_MAX, &off), FILE_LINES + 4000);
    ends_clean(in, path);
}

/* A file truncated after the open, past the bytes already read (in the
 * middle of a line): read to its new end, the last line cut there, and
 * the input ends cleanly (0, no error). */
static void test_truncated(void **state)
{
    (void)state;
    char path[64];
    xq_input *in = open_made_file(path);
    uint64_t off = 0;
    assert_int_equal(read_lines(in, 0, 1000, UINT64_MAX, &off), 1000);
    const uint64_t end = 1024 * 1024 + 17;   /* (line 32768, cut after 17 bytes) */
    assert_int_equal(truncate(path, (off_t)end), 0);
    read_lines(in, 1000, 0, end, &off);
    assert_int_equal(off, end);
    ends_clean(in, path);
}

/* A file emptied after the open: whatever was read before it is whole
 * lines of the old bytes, then the end (0, no error), no crash. */
static void test_emptied(void **state)
{
    (void)state;
    char path[64];
    xq_input *in = open_made_file(path);
    uint64_t off = 0;
    assert_int_equal(read_lines(in, 0, 10, UINT64_MAX, &off), 10);
    assert_int_equal(truncate(path, 0), 0);
    /* (what was buffered: whole lines, the last one maybe cut where the
     * buffer's bytes end) */
    xq_raw_line l;
    char t[LINE_LEN + 1];
    unsigned n = 10;
    bool cut = false;
    while (xq_input_line(in, &l) == 1) {
        assert_false(cut);   /* (only the last line may be cut) */
        line_text(n++, t);
        assert_int_equal(l.offset, off);
        assert_true(l.raw_len >= 1 && l.raw_len <= LINE_LEN);
        assert_memory_equal(l.bytes, t, l.raw_len);
        cut = l.raw_len < LINE_LEN;
        off += l.raw_len;
    }
    assert_true(n < FILE_LINES);
    ends_clean(in, path);
}

/* Lines written into a pipe by another process in pieces of odd sizes
 * (cutting lines and reads anywhere), read through /dev/fd/N: every line,
 * in order. */
static void test_pipe_pieces(void **state)
{
    (void)state;
    enum { LINES = 40000 };
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        char t[LINE_LEN + 1], buf[4 * LINE_LEN * 64];
        size_t n = 0, piece = 1;
        for (unsigned i = 0; i < LINES; i++) {
            line_text(i, t);
            memcpy(buf + n, t, LINE_LEN);
            n += LINE_LEN;
            if (n >= sizeof buf - LINE_LEN || i + 1 == LINES) {
                for (size_t at = 0; at < n;) {   /* pieces of 1, 8, 57, 456, ... bytes */
                    size_t k = n - at < piece ? n - at : piece;
                    if (write(p[1], buf + at, k) != (ssize_t)k) _exit(1);
                    at += k;
                    piece = piece * 7 + 1;
                    if (piece > 5000) piece = 1;
                }
                n = 0;
            }
        }
        _exit(0);
    }
    close(p[1]);
    char path[32];
    snprintf(path, sizeof path, "/dev/fd/%d", p[0]);
    char err[256];
    xq_input *in = xq_input_open(path, XQ_ENC_UTF8, err, sizeof err);
    assert_non_null(in);
    uint64_t off = 0;
    assert_int_equal(read_lines(in, 0, 0, UINT64_MAX, &off), LINES);
    assert_string_equal(xq_input_error(in), "");
    xq_input_close(in);
    close(p[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Standard input from a large regular file whose offset is not 0 (a
 * caller read part of it): the lines from that offset on, their stream
 * offsets counted from it; and the offset the shared file description
 * has afterwards is the file's end, as after read() to the end. */
static void test_stdin_at_offset(void **state)
{
    (void)state;
    char path[64] = "/tmp/xq-live-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_lines(path, 0, FILE_LINES);
    fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(lseek(fd, 3 * LINE_LEN, SEEK_SET), 3 * LINE_LEN);
    int saved = dup(STDIN_FILENO);
    assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
    char err[256];
    xq_input *in = xq_input_open("-", XQ_ENC_UTF8, err, sizeof err);
    assert_non_null(in);
    uint64_t off = 0;
    assert_int_equal(read_lines(in, 3, 0, UINT64_MAX, &off), FILE_LINES - 3);
    xq_input_close(in);
    assert_int_equal(lseek(fd, 0, SEEK_CUR), (off_t)FILE_LINES * LINE_LEN);
    dup2(saved, STDIN_FILENO);
    close(saved);
    close(fd);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_emptied),
        cmocka_unit_test(test_pipe_pieces),
        cmocka_unit_test(test_stdin_at_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
