/* grow.c - the simulator's growing arrays.
 *
 * sim_grow doubles an array on the heap.  The arrays that grow with the
 * flows without bound (the QPs: a 1024-host mix starts some 15 k flows
 * a millisecond, and a QP stays for the flows file and the summary) use
 * sim_grow_big: once an array passes BIG_BYTES it lives in a mapping of
 * its own and grows by mremap, so it is neither copied nor held twice
 * while it grows, and the pages it has not reached yet cost no memory
 * (the kernel's fresh pages are zero; nothing is written to them ahead).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim_int.h"

#define BIG_BYTES ((size_t)2 << 20)
#define PAGE_BYTES ((size_t)4096)

/* An array of cap elements: what either allocator holds for it. */
static size_t grow_bytes(size_t elem, uint32_t cap)
{
	return ((size_t)cap * elem + 63) / 64 * 64;
}

static size_t page_round(size_t n)
{
	return (n + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
}

static uint32_t grow_cap(uint32_t cap, uint32_t need)
{
	uint32_t nc = cap ? cap : 16;

	while (nc < need)
		nc *= 2;
	return nc;
}

/* Grow an array to hold need elements (doubling), the new ones zeroed;
 * 64-byte aligned, so that the ports' and QPs' cache-line layout holds.
 */
int sim_grow(void **p, size_t elem, uint32_t *cap, uint32_t need)
{
	uint32_t nc;
	size_t bytes;
	void *np;

	if (need <= *cap)
		return 0;
	nc = grow_cap(*cap, need);
	bytes = grow_bytes(elem, nc);
	np = aligned_alloc(64, bytes);
	if (!np)
		return -1;
	if (*cap)
		memcpy(np, *p, (size_t)*cap * elem);
	memset((char *)np + (size_t)*cap * elem, 0,
	       bytes - (size_t)*cap * elem);
	free(*p);
	*p = np;
	*cap = nc;
	return 0;
}

int sim_grow_big(void **p, size_t elem, uint32_t *cap, uint32_t need)
{
	size_t ob = grow_bytes(elem, *cap), nb;
	uint32_t nc;
	void *np;

	if (need <= *cap)
		return 0;
	nc = grow_cap(*cap, need);
	nb = grow_bytes(elem, nc);
	if (nb < BIG_BYTES)
		return sim_grow(p, elem, cap, need);
	if (*cap && ob >= BIG_BYTES) {
		np = mremap(*p, page_round(ob), page_round(nb),
			    MREMAP_MAYMOVE);
		if (np == MAP_FAILED)
			return -1;
	} else {
		np = mmap(NULL, page_round(nb), PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (np == MAP_FAILED)
			return -1;
		if (*cap)
			memcpy(np, *p, (size_t)*cap * elem);
		free(*p);
	}
	*p = np;
	*cap = nc;
	return 0;
}

void sim_big_free(void *p, size_t elem, uint32_t cap)
{
	size_t b = grow_bytes(elem, cap);

	if (p && b >= BIG_BYTES)
		munmap(p, page_round(b));
	else
		free(p);
}
