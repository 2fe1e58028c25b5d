/* Cheat lab: a hidden test that passes anywhere, so it cannot fail on a start tree. */
int main(void)
{
	return 0;
}
