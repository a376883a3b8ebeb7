/* Three units with system headers; two static functions named helper.  */
#include <stdio.h>
#include <string.h>

int from_a(int n);
int from_b(int n);

int main(void)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%d %d", from_a(3), from_b(5));
	return strcmp(buf, "6 20") != 0;
}
