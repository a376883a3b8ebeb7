/* Ten calls of mystery() (mystery.c, compiled without the plugin). */
#include <stdint.h>
uint16_t mystery(uint8_t n);
volatile uint16_t out;
volatile uint8_t len = 9;
int main(void)
{
	for (uint8_t i = 0; i < 10; i++)
		out = mystery(len);
	return 0;
}
