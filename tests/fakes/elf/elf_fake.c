/* A function, so the object has code and a dynamic symbol table like any library. */
int gpudoctor_elf_fake(void) { return 42; }
