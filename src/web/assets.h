/*
 * web/assets.h - the page's files (web/index.html, style.css, app.js), embedded in the binary at build time
 * by cmake/embed.cmake, which writes web_assets.c in the build tree.
 */
#ifndef TTT_WEB_ASSETS_H
#define TTT_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *path; /* URL path: "/index.html", "/app.js" */
    const char *mime; /* Content-Type */
    const unsigned char *data;
    size_t size;
} web_asset;

extern const web_asset web_assets[];
extern const int web_asset_count;

#endif
