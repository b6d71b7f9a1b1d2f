#include "tel/tel.h"

const char *tel_errname(int e)
{
	switch (e) {
	case TEL_OK:
		return "SUCCESS";
#define TEL_NAME(n, v, c) case TEL_##n: return #n;
	TEL_ERRORS(TEL_NAME)
#undef TEL_NAME
	default:
		return "UNKNOWN";
	}
}

int tel_exit_class(int e)
{
	switch (e) {
	case TEL_OK:
		return 0;
#define TEL_CLASS(n, v, c) case TEL_##n: return c;
	TEL_ERRORS(TEL_CLASS)
#undef TEL_CLASS
	default:
		return 2;
	}
}
