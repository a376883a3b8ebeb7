/* A loop made of goto: the seed's AST walk could not see it.
   s += i and i++ run 10 times each, the test i < 10 runs 10 times.  */
int main(void)
{
	int i = 0, s = 0;
again:
	s += i;
	i++;
	if (i < 10)
		goto again;
	return s - 45;
}
