/* Functions we never use: unbounded or stateful string handling.
 * Included in every translation unit by the Makefile (-include).
 *
 * The headers that declare them come first, so their declarations (and
 * _FORTIFY_SOURCE's inline wrappers of the same names, as distributions
 * build) are read before the names become macros; their include guards
 * keep them from being read again after.
 */
#ifndef PCCB_BANNED_H
#define PCCB_BANNED_H

#include <stdio.h>
#include <string.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gets
#define gets(x) BANNED(gets)

#endif
