/* xml_lib.h - libxml2, loaded the first time an XML record is read.
 *
 * The tools are not linked with libxml2: it drags in ICU (libicuuc and a
 * 30 MB libicudata), libstdc++, libgcc_s, liblzma and libm, all mapped and
 * relocated (libxml2 is linked BIND_NOW) at every start, about 3 ms of the
 * ~7 ms a tool takes on an empty file -- paid by every run over PGN, which
 * never touches XML.  Instead xml_read.c calls xq_libxml2_load(), which
 * dlopen()s the library once per process (RTLD_NOW | RTLD_LOCAL; the
 * SONAME the build linker would have taken, given by the Makefile as
 * XQ_LIBXML2_SONAME, else "libxml2.so.2") and resolves every function
 * xml_read.c uses into one table.  The headers still give the types, so a
 * prototype change in libxml2 is a compile error here, as it was.
 *
 * Relies on dlopen/dlsym in libc (glibc >= 2.34) or -ldl in the link. */
#ifndef XQ_XML_LIB_H
#define XQ_XML_LIB_H

#include <stddef.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

/* Every libxml2 function xml_read.c calls, by its name in libxml2 (an
 * X-macro: each F(name) becomes a table field and a dlsym of "name").
 * xmlFree is not among them: see xq_libxml2_free. */
#define XQ_LIBXML2_FUNCS(F)                                                                                    \
    F(xmlInitParser)                                                                                           \
    F(xmlReaderForIO)                                                                                          \
    F(xmlTextReaderSetStructuredErrorHandler)                                                                  \
    F(xmlFreeTextReader)                                                                                       \
    F(xmlTextReaderRead)                                                                                       \
    F(xmlTextReaderNext)                                                                                       \
    F(xmlTextReaderNodeType)                                                                                   \
    F(xmlTextReaderDepth)                                                                                      \
    F(xmlTextReaderCurrentNode)                                                                                \
    F(xmlTextReaderExpand)                                                                                     \
    F(xmlTextReaderGetParserLineNumber)                                                                        \
    F(xmlGetLineNo)                                                                                            \
    F(xmlNodeGetContent)                                                                                       \
    F(xmlDocGetRootElement)

/* The resolved functions, each field typed as a pointer to the function
 * of the same name declared by the libxml2 headers. */
typedef struct xq_libxml2 {
#define XQ_LIBXML2_FIELD(name) __typeof__(&name) name;
    XQ_LIBXML2_FUNCS(XQ_LIBXML2_FIELD)
#undef XQ_LIBXML2_FIELD
} xq_libxml2;

/* libxml2's functions, loading the library and running xmlInitParser()
 * on the first call of the process (thread-safe: pthread_once; any thread
 * may call it, and every caller sees the table complete).  Returns the
 * table (static, never freed: the library stays loaded to the end of the
 * process), or NULL when the library cannot be loaded or lacks a function;
 * then *why (when why is not NULL) is dlerror()'s message from that first
 * attempt, e.g. "libxml2.so.2: cannot open shared object file: No such
 * file or directory", static, the same on every later call (no retry). */
const xq_libxml2 *xq_libxml2_load(const char **why);

/* xmlFree(p) of the loaded library: frees what libxml2 allocated (e.g.
 * xmlNodeGetContent's result).  Only after xq_libxml2_load() returned a table.
 * (In libxml2 built with LIBXML_THREAD_ALLOC_ENABLED, xmlFree is a macro
 * over __xmlFree(), a function returning the thread's free function;
 * otherwise it is a variable: both are resolved here.) */
void xq_libxml2_free(void *p);

#endif
