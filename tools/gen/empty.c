/* keeps the generator library non-empty before its first source lands */
typedef int vks_gen_empty_unit;
