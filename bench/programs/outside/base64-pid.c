/* Outside the calibration corpus: base64-encodes a buffer, decodes it back, and runs a
 * fixed-point PID loop with 32-bit divisions and a 64-bit accumulator. */
#include <stdint.h>
#include <string.h>
static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static uint8_t raw[48], back[48];
static char text[68];
volatile int32_t sink;
static uint8_t index_of(char c)
{
	const char *p = strchr(alphabet, c);
	return p ? (uint8_t)(p - alphabet) : 0;
}
static size_t encode(const uint8_t *in, size_t n, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		for (int8_t k = 18; k >= 0; k -= 6)
			out[o++] = alphabet[(v >> k) & 63];
	}
	out[o] = 0;
	return o;
}
static size_t decode(const char *in, uint8_t *out)
{
	size_t o = 0;
	for (size_t i = 0; in[i] && in[i + 3]; i += 4) {
		uint32_t v = 0;
		for (uint8_t k = 0; k < 4; k++)
			v = v << 6 | index_of(in[i + k]);
		out[o++] = (uint8_t)(v >> 16);
		out[o++] = (uint8_t)(v >> 8);
		out[o++] = (uint8_t)v;
	}
	return o;
}
typedef struct { int32_t kp, ki, kd, prev; int64_t integral; } pid;
static int32_t step(pid *c, int32_t setpoint, int32_t measured)
{
	int32_t err = setpoint - measured;
	c->integral += err;
	int32_t d = err - c->prev;
	c->prev = err;
	int64_t u = (int64_t)c->kp * err + c->ki * c->integral / 16 + (int64_t)c->kd * d;
	return (int32_t)(u / 1024);
}
int main(void)
{
	for (uint8_t i = 0; i < sizeof raw; i++)
		raw[i] = (uint8_t)(i * 73 + 11);
	size_t n = 0;
	for (uint8_t r = 0; r < 4; r++) {
		encode(raw, sizeof raw, text);
		n += decode(text, back);
		raw[r] ^= back[47 - r];
	}
	pid c = { 900, 40, 300, 0, 0 };
	int32_t y = 0;
	for (int16_t t = 0; t < 150; t++) {
		int32_t u = step(&c, t < 75 ? 5000 : -2000, y);
		y += (u - y) / 7;
	}
	sink = y + (int32_t)n + (memcmp(raw, back, sizeof raw) != 0);
	return 0;
}
