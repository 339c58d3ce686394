/* simu CUDA shim: C library declarations shared by <stdio.h>, <stdlib.h> and <string.h>.
 * Host-only functions are plain declarations (host code is parsed, never compiled); the few
 * that CUDA also offers in device code (printf, malloc, free, memcpy, memset, memmove) come
 * from __simu_device.h. Prototypes follow glibc's (noexcept where glibc has __THROW) so that
 * a glibc header reached through libstdc++ redeclares them compatibly. */
#ifndef __SIMU_LIBC_H
#define __SIMU_LIBC_H

#include <stddef.h>
#include <stdarg.h>
#include "cuda_runtime.h"

extern "C" {

/* ---- stdio -------------------------------------------------------------------------------- */
typedef struct _IO_FILE FILE;
typedef struct _IO_FILE __FILE;
typedef struct { long long __simu_pos; } __simu_fpos_t;
typedef __simu_fpos_t fpos_t;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr
#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define L_tmpnam 20
#define TMP_MAX 238328
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

int fprintf(FILE *__restrict stream, const char *__restrict format, ...);
int sprintf(char *__restrict s, const char *__restrict format, ...) noexcept;
int snprintf(char *__restrict s, size_t n, const char *__restrict format, ...) noexcept;
int vprintf(const char *__restrict format, __builtin_va_list ap);
int vfprintf(FILE *__restrict stream, const char *__restrict format, __builtin_va_list ap);
int vsprintf(char *__restrict s, const char *__restrict format, __builtin_va_list ap) noexcept;
int vsnprintf(char *__restrict s, size_t n, const char *__restrict format, __builtin_va_list ap) noexcept;
int scanf(const char *__restrict format, ...);
int fscanf(FILE *__restrict stream, const char *__restrict format, ...);
int sscanf(const char *__restrict s, const char *__restrict format, ...) noexcept;
int vscanf(const char *__restrict format, __builtin_va_list ap);
int vfscanf(FILE *__restrict stream, const char *__restrict format, __builtin_va_list ap);
int vsscanf(const char *__restrict s, const char *__restrict format, __builtin_va_list ap) noexcept;
int puts(const char *s);
int fputs(const char *__restrict s, FILE *__restrict stream);
int putchar(int c);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int getchar(void);
int fgetc(FILE *stream);
int getc(FILE *stream);
int ungetc(int c, FILE *stream);
char *fgets(char *__restrict s, int n, FILE *__restrict stream);
FILE *fopen(const char *__restrict filename, const char *__restrict modes);
FILE *freopen(const char *__restrict filename, const char *__restrict modes, FILE *__restrict stream);
FILE *tmpfile(void);
char *tmpnam(char *s) noexcept;
int fclose(FILE *stream);
int fflush(FILE *stream);
size_t fread(void *__restrict ptr, size_t size, size_t n, FILE *__restrict stream);
size_t fwrite(const void *__restrict ptr, size_t size, size_t n, FILE *__restrict s);
int fseek(FILE *stream, long off, int whence);
long ftell(FILE *stream);
void rewind(FILE *stream);
int fgetpos(FILE *__restrict stream, fpos_t *__restrict pos);
int fsetpos(FILE *stream, const fpos_t *pos);
int feof(FILE *stream) noexcept;
int ferror(FILE *stream) noexcept;
void clearerr(FILE *stream) noexcept;
void perror(const char *s);
int remove(const char *filename) noexcept;
int rename(const char *old, const char *new_) noexcept;
void setbuf(FILE *__restrict stream, char *__restrict buf) noexcept;
int setvbuf(FILE *__restrict stream, char *__restrict buf, int modes, size_t n) noexcept;

/* ---- stdlib ------------------------------------------------------------------------------- */
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define MB_CUR_MAX 1
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;

void *calloc(size_t n, size_t size) noexcept;
void *realloc(void *ptr, size_t size) noexcept;
void *aligned_alloc(size_t alignment, size_t size) noexcept;
int posix_memalign(void **memptr, size_t alignment, size_t size) noexcept;
[[noreturn]] void abort(void) noexcept;
[[noreturn]] void exit(int status);
[[noreturn]] void _Exit(int status);
[[noreturn]] void quick_exit(int status) noexcept;
int atexit(void (*func)(void)) noexcept;
int at_quick_exit(void (*func)(void)) noexcept;
char *getenv(const char *name) noexcept;
int setenv(const char *name, const char *value, int replace) noexcept;
int system(const char *command);
int atoi(const char *s) noexcept;
long atol(const char *s) noexcept;
long long atoll(const char *s) noexcept;
double atof(const char *s) noexcept;
long strtol(const char *__restrict s, char **__restrict end, int base) noexcept;
unsigned long strtoul(const char *__restrict s, char **__restrict end, int base) noexcept;
long long strtoll(const char *__restrict s, char **__restrict end, int base) noexcept;
unsigned long long strtoull(const char *__restrict s, char **__restrict end, int base) noexcept;
float strtof(const char *__restrict s, char **__restrict end) noexcept;
double strtod(const char *__restrict s, char **__restrict end) noexcept;
long double strtold(const char *__restrict s, char **__restrict end) noexcept;
int rand(void) noexcept;
void srand(unsigned int seed) noexcept;
int rand_r(unsigned int *seed) noexcept;
long random(void) noexcept;
void srandom(unsigned int seed) noexcept;
double drand48(void) noexcept;
void srand48(long seed) noexcept;
long lrand48(void) noexcept;
long mrand48(void) noexcept;
double erand48(unsigned short xsubi[3]) noexcept;
long nrand48(unsigned short xsubi[3]) noexcept;
long jrand48(unsigned short xsubi[3]) noexcept;
unsigned short *seed48(unsigned short seed16v[3]) noexcept;
void qsort(void *base, size_t n, size_t size, int (*compar)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*compar)(const void *, const void *));
div_t div(int num, int den) noexcept;
ldiv_t ldiv(long num, long den) noexcept;
lldiv_t lldiv(long long num, long long den) noexcept;
int mblen(const char *s, size_t n) noexcept;
int mbtowc(wchar_t *__restrict pwc, const char *__restrict s, size_t n) noexcept;
int wctomb(char *s, wchar_t wc) noexcept;
size_t mbstowcs(wchar_t *__restrict pwcs, const char *__restrict s, size_t n) noexcept;
size_t wcstombs(char *__restrict s, const wchar_t *__restrict pwcs, size_t n) noexcept;

/* ---- string ------------------------------------------------------------------------------- */
__host__ __device__ int memcmp(const void *s1, const void *s2, size_t n) noexcept;
void *memchr(const void *s, int c, size_t n) noexcept;
__host__ __device__ size_t strlen(const char *s) noexcept;
size_t strnlen(const char *s, size_t maxlen) noexcept;
__host__ __device__ int strcmp(const char *s1, const char *s2) noexcept;
int strncmp(const char *s1, const char *s2, size_t n) noexcept;
int strcoll(const char *s1, const char *s2) noexcept;
char *strcpy(char *__restrict dst, const char *__restrict src) noexcept;
char *strncpy(char *__restrict dst, const char *__restrict src, size_t n) noexcept;
char *strcat(char *__restrict dst, const char *__restrict src) noexcept;
char *strncat(char *__restrict dst, const char *__restrict src, size_t n) noexcept;
char *strchr(const char *s, int c) noexcept;
char *strrchr(const char *s, int c) noexcept;
char *strstr(const char *haystack, const char *needle) noexcept;
char *strpbrk(const char *s, const char *accept) noexcept;
size_t strspn(const char *s, const char *accept) noexcept;
size_t strcspn(const char *s, const char *reject) noexcept;
char *strtok(char *__restrict s, const char *__restrict delim) noexcept;
char *strdup(const char *s) noexcept;
char *strerror(int errnum) noexcept;
size_t strxfrm(char *__restrict dst, const char *__restrict src, size_t n) noexcept;
int strcasecmp(const char *s1, const char *s2) noexcept;
int strncasecmp(const char *s1, const char *s2, size_t n) noexcept;
}

#endif /* __SIMU_LIBC_H */
