/* Linked into the missing-dependency fake libcuda, then left out of every search path. */
int gpudoctor_absent_dependency(void) { return 0; }
