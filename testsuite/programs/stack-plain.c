/* Compiled without the plugin: its frame is read from its code (t0485-stack.sh). */
unsigned char plain_leaf(unsigned char v)
{
	volatile unsigned char buf[12];
	buf[v & 7] = v;
	return buf[v & 7];
}
