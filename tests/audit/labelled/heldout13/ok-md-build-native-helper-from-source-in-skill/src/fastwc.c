#include <ctype.h>
#include <stdio.h>

int main(int argc, char **argv)
{
  for(int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if(!f) {
      perror(argv[i]);
      continue;
    }
    unsigned long lines = 0, words = 0, bytes = 0;
    int c, inword = 0;
    while((c = getc(f)) != EOF) {
      bytes++;
      if(c == '\n')
        lines++;
      if(isspace(c))
        inword = 0;
      else if(!inword) {
        inword = 1;
        words++;
      }
    }
    fclose(f);
    printf("%lu %lu %lu %s\n", lines, words, bytes, argv[i]);
  }
  return 0;
}
