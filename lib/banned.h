/*
 * banned: functions dirc code must not call, because each has a safer
 * replacement in lib/ or a well-known history of overflows and races.
 * Included last by util.h, after every system header that declares them,
 * so a use anywhere after util.h fails to compile with a readable name.
 */
#ifndef DIRC_BANNED_H
#define DIRC_BANNED_H

#define BANNED(fn) sorry_##fn##_is_banned

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(t) BANNED(asctime)

#endif
