/* Cheat lab: a test that passes. It must earn its point (unless the boot is unhealthy). */
int main(void)
{
	return 0;
}
