/* keep.c - the records xq-validate --keep writes, as one database: one
 * form, one encoding.  See keep.h. */
#include "keep.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game_io.h"
#include "transcode.h"
#include "write.h"

/* The length of g's byte-order mark (a UTF-8 file's first record), else 0. */
static size_t bom_len(const xq_game *g)
{
    bool bom = g->offset == 0 && g->encoding == XQ_ENC_UTF8 && g->raw_len >= 3 && !memcmp(g->raw, "\xEF\xBB\xBF", 3);
    return bom ? 3 : 0;
}

/* Tell (slot->err, as a warning) that the kept game's text lost
 * characters in its way to the output's encoding: where the first one is
 * in the file (raw: the record's bytes in its encoding, from its start).
 * The record is still kept: --keep never drops one. */
static void tell_lost(xq_slot *slot, const char *raw, size_t len, xq_encoding to, const xq_transcode_report *tr,
                      bool rewritten)
{
    const xq_game *g = &slot->game;
    size_t first = 0;   /* the record's first non-blank line, which g->first_line numbers */
    unsigned long before, col, line, col0;
    size_t bom = len >= 3 && !memcmp(raw, "\xEF\xBB\xBF", 3) ? 3 : 0;   /* (raw may have left it out) */
    for (size_t i = bom; i < len && strchr(" \t\r\n", raw[i]); i++)
        if (raw[i] == '\n') first = i + 1;
    xq_text_place(raw, len, first, g->encoding, &before, &col0);
    xq_text_place(raw, len, tr->first_lost, g->encoding, &line, &col);
    char label[512];
    xq_game_label(g, label, sizeof label);
    xq_name_put(slot->err, g->file);
    fprintf(slot->err, ":%llu:%lu: ", (unsigned long long)(g->first_line + line - before), col);
    xq_name_printf(slot->err, "warning: game %llu%s%s%s: kept in %s, the encoding of the records kept before it:",
                   (unsigned long long)g->index, *label ? " (" : "", label, *label ? ")" : "", xq_encoding_name(to));
    if (rewritten)
        fprintf(slot->err, " written as PGN, its moves in characters %s has (its bytes would lose some of them)%s",
                xq_encoding_name(to), tr->unencodable || tr->bad ? ";" : "");
    if (tr->unencodable)
        fprintf(slot->err, " %u character%s it lacks written as '?'", tr->unencodable, tr->unencodable == 1 ? "" : "s");
    if (tr->bad)
        fprintf(slot->err, "%s %u byte%s invalid in %s written as '%s'", tr->unencodable ? ";" : "", tr->bad,
                tr->bad == 1 ? "" : "s", xq_encoding_name(g->encoding), to == XQ_ENC_UTF8 ? "\xEF\xBF\xBD" : "?");
    fputc('\n', slot->err);
}

static void keep_as_pgn(const xq_keep_state *ks, xq_slot *slot, xq_kept_game *kept, xq_result fixed, bool rewritten);

/* Has every move text of br and of its variations (UTF-8, as the readers
 * give them) a character of encoding to?  false as well when a converter
 * cannot be opened: then the caller takes the writer's way. */
static bool moves_fit(const xq_branch *br, xq_encoding to)
{
    for (size_t i = 0; i < br->count; i++) {
        const xq_node *nd = &br->nodes[i];
        size_t n = nd->text ? strlen(nd->text) : 0;
        xq_transcode_report tr;
        if (n && !xq_text_ascii(nd->text, n) &&
            (!xq_transcode(NULL, nd->text, n, XQ_ENC_UTF8, to, &tr) || tr.first_lost != SIZE_MAX))
            return false;
        for (uint32_t v = 0; v < nd->variation_count; v++)   /* (nesting is bounded: XQ_MAX_VARIATION_DEPTH) */
            if (!moves_fit(&nd->variations[v], to)) return false;
    }
    return true;
}

/* Kept bytes of a PGN-style record: as they are, unless they are of an
 * encoding other than the kept records' and not all ASCII: then the record as it goes out (fixed, with a line feed at
 * its end) goes into a buffer first, and is transcoded from there. */
static void keep_bytes(const xq_keep_state *ks, xq_slot *slot, xq_kept_game *kept, bool fix, xq_result fixed)
{
    xq_game g = slot->game;   /* (a shallow copy: without its BOM) */
    if (ks->written) {        /* a BOM only at the very start of the output */
        size_t bom = bom_len(&g);
        g.raw += bom;
        g.raw_len -= bom;
    }
    /* (only text records are kept as bytes: xq_keep_game) */
    bool other = ks->enc != XQ_ENC_AUTO && ks->enc != g.encoding;
    bool ascii = (ks->enc == XQ_ENC_AUTO || other) && xq_text_ascii(g.raw, g.raw_len);
    if (ks->enc == XQ_ENC_AUTO && !ascii) kept->enc = g.encoding;
    /* a PGN record whose moves the output's encoding cannot spell (the
     * simplified 马 进 in Big5) would not read back as the game it is:
     * written by the PGN writer instead, its moves in the characters the
     * encoding has (traditional ones), with a warning */
    if (other && !ascii && g.format == XQ_FMT_PGN) {
        if (!moves_fit(&g.main, ks->enc)) {
            keep_as_pgn(ks, slot, kept, fix ? fixed : XQ_RESULT_NONE, true);
            return;
        }
    }
    kept->wrote = true;
    bool transcode = other && !ascii;
    bool cr = g.cr_lines;   /* a file of CR line ends: raw holds LF, written back as CR */
    bool direct = !transcode && !cr;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = direct ? slot->out : open_memstream(&buf, &len);
    if (!out) {
        slot->game.out_of_memory = true;   /* (fails the run, never silently: pipeline.h) */
        return;
    }
    if (fix) xq_write_raw_with_result(out, &g, xq_result_str(fixed));
    else fwrite(g.raw, 1, g.raw_len, out);
    /* a text record that ends its file without a line feed gets one (in
     * its own line ending): the next record kept starts a line of its own,
     * where `cat` would join them as `1-0[Game ...` */
    if (g.raw_len && g.raw[g.raw_len - 1] != '\n')
        fputs(memchr(g.raw, '\r', g.raw_len) ? "\r\n" : "\n", out);
    if (direct) return;
    bool ok = fclose(out) == 0;
    if (ok && cr)
        for (char *p = buf; (p = memchr(p, '\n', len - (size_t)(p - buf))) != NULL;) *p++ = '\r';
    if (!transcode) {
        ok = ok && fwrite(buf, 1, len, slot->out) == len;
        free(buf);
        if (!ok) slot->game.out_of_memory = true;
        return;
    }
    xq_transcode_report tr;
    ok = ok && xq_transcode(slot->out, buf, len, g.encoding, ks->enc, &tr);
    free(buf);
    if (!ok) {
        slot->game.out_of_memory = true;
        return;
    }
    if (tr.first_lost == SIZE_MAX) return;
    kept->lost = true;
    /* its place in the file: in the bytes before the fix (which edits
     * ASCII only, so the count stays) */
    if (fix) xq_transcode(NULL, g.raw, g.raw_len, g.encoding, ks->enc, &tr);
    tell_lost(slot, g.raw, g.raw_len, ks->enc, &tr, false);
}

/* Where the character at text[at] (the writer's UTF-8 text of g, which
 * the output's encoding lacks) is in g's source (XML, JSON Lines: game.h,
 * UTF-8 as the readers keep it): the offset there of the same run of
 * text around it (up to the markup, quotes, escapes or blanks of either
 * form, at most 120 bytes each way), else of the character alone; SIZE_MAX
 * when there is no source or neither is in it (the character written as
 * an escape or entity in the file). */
static size_t source_place(const xq_game *g, const char *text, size_t len, size_t at)
{
    if (!g->source || g->encoding != XQ_ENC_UTF8 || at >= len) return SIZE_MAX;
    static const char stops[] = " \t\r\n\"\\[]{}<>&";
    size_t a = at, b = at + 1;
    while (a > 0 && at - a < 120 && !strchr(stops, text[a - 1])) a--;
    while (b < len && b - at < 120 && !strchr(stops, text[b])) b++;
    const char *found = memmem(g->source, g->source_len, text + a, b - a);
    if (found) return (size_t)(found - g->source) + (at - a);
    size_t n = 1;   /* the character alone: its UTF-8 sequence */
    while (at + n < len && n < 4 && ((unsigned char)text[at + n] & 0xC0) == 0x80) n++;
    found = memmem(g->source, g->source_len, text + at, n);
    return found ? (size_t)(found - g->source) : SIZE_MAX;
}

/* A kept record without bytes (XML input) after records kept as bytes:
 * as PGN, in their encoding. */
static void keep_as_pgn(const xq_keep_state *ks, xq_slot *slot, xq_kept_game *kept, xq_result fixed, bool rewritten)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        slot->game.out_of_memory = true;
        return;
    }
    /* Chinese moves in the characters the output's encoding has: Big5
     * lacks the simplified ones (as xq-convert --encoding big5) */
    xq_write_options pgn = {.format = XQ_OUT_PGN, .notation_flags = ks->enc == XQ_ENC_BIG5 ? XQ_WRITE_TRADITIONAL : 0};
    xq_write_kept_opt(f, &slot->game, &slot->replay, &pgn, fixed);
    if (fclose(f) != 0) {
        free(buf);
        slot->game.out_of_memory = true;
        return;
    }
    /* the writer's text is UTF-8: it sets the output's encoding, or follows it */
    bool ascii = xq_text_ascii(buf, len);
    xq_encoding to = ks->enc == XQ_ENC_AUTO ? XQ_ENC_UTF8 : ks->enc;
    xq_transcode_report tr;
    if (ks->enc == XQ_ENC_AUTO && !ascii) kept->enc = XQ_ENC_UTF8;
    kept->wrote = true;
    bool ok = ascii ? fwrite(buf, 1, len, slot->out) == len : xq_transcode(slot->out, buf, len, XQ_ENC_UTF8, to, &tr);
    if (ascii) tr = (xq_transcode_report){.first_lost = SIZE_MAX};
    /* the place: the first character lost, in the record's source (XML,
     * JSON Lines: game.h), as a PGN record's (keep_bytes); else the game's
     * first line */
    size_t in_source = ok && !rewritten && tr.first_lost != SIZE_MAX
                           ? source_place(&slot->game, buf, len, tr.first_lost) : SIZE_MAX;
    free(buf);
    if (!ok) {
        slot->game.out_of_memory = true;
        return;
    }
    if (tr.first_lost == SIZE_MAX && !rewritten) return;
    kept->lost = true;
    tr.first_lost = in_source != SIZE_MAX ? in_source : 0;
    if (in_source != SIZE_MAX) tell_lost(slot, slot->game.source, slot->game.source_len, to, &tr, rewritten);
    else tell_lost(slot, "", 0, to, &tr, rewritten);   /* (the text is the writer's) */
}

/* xq_keep_game (keep.h). */
void xq_keep_game(const xq_keep_state *ks, xq_slot *slot, xq_kept_game *kept, bool fix_results)
{
    const xq_game *g = &slot->game;
    const xq_replay *r = &slot->replay;
    /* only an ending the board decides: a repetition verdict or the move
     * limit is a claim the players may not have made (xq(7)) */
    bool fix = fix_results && xq_replay_board_decides(r);
    xq_result fixed = fix ? r->result_board : XQ_RESULT_NONE;
    kept->kept = true;
    kept->result_fixed = fix && (r->kind_counts[XQ_FIND_RESULT_MISMATCH][XQ_SEV_ERROR] ||
                                 r->kind_counts[XQ_FIND_RESULT_MISSING][XQ_SEV_ERROR]);
    /* bytes kept as they are: PGN-style records'.  XML and JSON Lines keep
     * none; DhtmlXQ and binary records (XQF, CBR, CBL) are converted as
     * those are: their bytes run together are no file a reader takes (a
     * CBL's records copied one after the other read back as one game, an
     * XQF file after another as one, PGN after XQF as damaged text, PGN
     * beside a DhtmlXQ block as DhtmlXQ alone: the sniff finds the block) */
    bool has_bytes = g->raw_len > 0 && g->format == XQ_FMT_PGN;
    if (has_bytes && ks->form != XQ_KEEP_XML) {
        kept->bytes = true;
        keep_bytes(ks, slot, kept, fix, fixed);
    } else if (ks->form == XQ_KEEP_BYTES) {   /* XML after records kept as bytes: as PGN */
        keep_as_pgn(ks, slot, kept, fixed, false);
    } else {
        FILE *f = open_memstream(&kept->xml, &kept->len);
        if (f) {
            xq_write_kept(f, g, r, XQ_OUT_XML, fixed);
            fclose(f);
        }
    }
}

/* xq_keep_account (keep.h).  Within one file neither the form nor the
 * encoding can change (one reader: every record has bytes, or none; every
 * text record the file's encoding), and the workers of later files follow
 * them. */
unsigned xq_keep_account(xq_keep_state *ks, xq_kept_game *kept, FILE *out)
{
    static const xq_write_options xml = {.format = XQ_OUT_XML};
    if (kept->bytes && ks->form == XQ_KEEP_UNSET) ks->form = XQ_KEEP_BYTES;
    if (kept->enc != XQ_ENC_AUTO && ks->enc == XQ_ENC_AUTO) ks->enc = kept->enc;
    assert(kept->enc == XQ_ENC_AUTO || kept->enc == ks->enc);   /* (one file, one encoding) */
    ks->written |= kept->wrote;
    unsigned warnings = kept->lost;   /* (one for the game's note) */
    if (kept->xml) {
        if (ks->form == XQ_KEEP_UNSET) {
            ks->form = XQ_KEEP_XML;
            xq_write_begin(out, &xml);
        }
        fwrite(kept->xml, 1, kept->len, out);
        free(kept->xml);
    }
    *kept = (xq_kept_game){0};
    return warnings;
}

void xq_keep_end(const xq_keep_state *ks, FILE *out)
{
    static const xq_write_options xml = {.format = XQ_OUT_XML};
    if (ks->form == XQ_KEEP_XML) xq_write_end(out, &xml);
}
