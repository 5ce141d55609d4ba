/* xml_lib.c - libxml2 loaded with dlopen the first time it is needed.
 * See xml_lib.h. */
#include "xml_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The library's SONAME, found by the Makefile from the libxml2.so the
 * linker would take; this fallback is the SONAME of libxml2 2.x. */
#ifndef XQ_LIBXML2_SONAME
#define XQ_LIBXML2_SONAME "libxml2.so.2"
#endif

/* How xmlFree reaches the free function.  The header makes xmlFree a macro,
 * (*(__xmlFree())), when libxml2 keeps its allocator per thread
 * (LIBXML_THREAD_ALLOC_ENABLED); else xmlFree is a variable holding it. */
#ifdef xmlFree
typedef xmlFreeFunc *(*free_slot_fn)(void);
#define FREE_SYMBOL "__xmlFree"
#else
#define FREE_SYMBOL "xmlFree"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static xq_libxml2 table;
static void *free_sym;       /* FREE_SYMBOL's address */
static const xq_libxml2 *loaded;   /* &table once complete, else NULL */
static char failure[512];    /* why it is not, from the first attempt */

/* dlsym(h, name), noting the failure (dlerror's message) when absent. */
static void *resolve(void *h, const char *name, int *ok)
{
    dlerror();   /* clear a stale message */
    void *p = dlsym(h, name);
    if (!p && *ok) {
        const char *e = dlerror();
        snprintf(failure, sizeof failure, "%s", e ? e : name);
        *ok = 0;
    }
    return p;
}

/* Once per process (pthread_once): open the library and fill the table.
 * The handle is never closed: libxml2 keeps global state (the parser's
 * initialization, its dictionaries' seeds) for the rest of the process. */
static void load_libxml2(void)
{
    void *h = dlopen(XQ_LIBXML2_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(failure, sizeof failure, "%s", e ? e : XQ_LIBXML2_SONAME ": cannot be loaded");
        return;
    }
    int ok = 1;
    /* POSIX guarantees dlsym's object pointer converts to a function pointer */
#define XQ_LIBXML2_RESOLVE(name) table.name = (__typeof__(table.name))resolve(h, #name, &ok);
    XQ_LIBXML2_FUNCS(XQ_LIBXML2_RESOLVE)
#undef XQ_LIBXML2_RESOLVE
    free_sym = resolve(h, FREE_SYMBOL, &ok);
    if (!ok) return;
    table.xmlInitParser();   /* what the first xmlReaderForIO would do, once */
    loaded = &table;
}

const xq_libxml2 *xq_libxml2_load(const char **why)
{
    pthread_once(&once, load_libxml2);
    if (!loaded && why) *why = failure;
    return loaded;
}

void xq_libxml2_free(void *p)
{
#ifdef xmlFree
    xmlFreeFunc f = *((free_slot_fn)free_sym)();
#else
    xmlFreeFunc f = *(xmlFreeFunc *)free_sym;
#endif
    f(p);
}
