package SwiftSource;
# A small reader of Swift sources for the documentation checks (Scripts/operator-table.pl,
# Scripts/check-doc-names.pl). It is not a parser: it blanks out comments and string
# literals (keeping every newline and offset, so positions still point at the source),
# finds the block a brace opens, and lists the declarations of a file. That is enough to
# read the shapes this repository's sources are written in, and every use is checked by
# CI against the docs it generates or verifies.
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(read_clean block_end declarations swift_files);

# The file's text with comments and string contents replaced by spaces. Interpolations
# inside strings stay code, since they may hold strings of their own.
sub read_clean {
  my ($path) = @_;
  open my $fh, '<', $path or die "$path: $!\n";
  local $/;
  my $text = <$fh>;
  close $fh;
  my @chars = split //, $text;
  my $n = @chars;
  my @out = @chars;
  my $i = 0;
  # A stack of contexts: 'code' (with the paren depth that ends an interpolation), or
  # a string ('"' or '"""').
  my @stack = (['code', -1]);
  my $blank = sub { my ($from, $to) = @_; for my $k ($from .. $to - 1) { $out[$k] = ' ' unless $chars[$k] eq "\n" } };
  while ($i < $n) {
    my $top = $stack[-1];
    my $c = $chars[$i];
    if ($top->[0] eq 'code') {
      if ($c eq '/' && $i + 1 < $n && $chars[$i + 1] eq '/') {
        my $j = $i;
        $j++ while $j < $n && $chars[$j] ne "\n";
        $blank->($i, $j);
        $i = $j;
      } elsif ($c eq '/' && $i + 1 < $n && $chars[$i + 1] eq '*') {
        my ($j, $depth) = ($i + 2, 1);
        while ($j < $n && $depth > 0) {
          if ($chars[$j] eq '/' && $j + 1 < $n && $chars[$j + 1] eq '*') { $depth++; $j += 2 }
          elsif ($chars[$j] eq '*' && $j + 1 < $n && $chars[$j + 1] eq '/') { $depth--; $j += 2 }
          else { $j++ }
        }
        $blank->($i, $j);
        $i = $j;
      } elsif ($c eq '"') {
        my $triple = ($i + 2 < $n && $chars[$i + 1] eq '"' && $chars[$i + 2] eq '"');
        push @stack, [$triple ? '"""' : '"', 0];
        $i += $triple ? 3 : 1;
      } elsif ($c eq '(' && $top->[1] >= 0) {
        $top->[1]++;
        $i++;
      } elsif ($c eq ')' && $top->[1] >= 0) {
        if ($top->[1] == 0) { pop @stack; } else { $top->[1]--; }
        $i++;
      } else {
        $i++;
      }
    } else {
      my $quote = $top->[0];
      if ($c eq '\\' && $i + 1 < $n && $chars[$i + 1] eq '(') {
        $out[$i] = ' ';
        $i += 2;
        push @stack, ['code', 0];
      } elsif ($c eq '\\') {
        $blank->($i, $i + 2);
        $i += 2;
      } elsif ($quote eq '"' && $c eq '"') {
        pop @stack;
        $i++;
      } elsif ($quote eq '"""' && $c eq '"' && $i + 2 < $n && $chars[$i + 1] eq '"' && $chars[$i + 2] eq '"') {
        pop @stack;
        $i += 3;
      } else {
        $out[$i] = ' ' unless $c eq "\n";
        $i++;
      }
    }
  }
  return join '', @out;
}

# The offset of the brace that closes the one at $open.
sub block_end {
  my ($text, $open) = @_;
  my $depth = 0;
  for my $k ($open .. length($text) - 1) {
    my $c = substr($text, $k, 1);
    if ($c eq '{') { $depth++ }
    elsif ($c eq '}') { $depth--; return $k if $depth == 0 }
  }
  return length($text) - 1;
}

# Every type declared in a cleaned file: [name, kind, access, inherited text, offset].
# Access is 'public' (public or open), 'package' or 'internal' (anything else, including
# @usableFromInline, fileprivate and private).
sub declarations {
  my ($text) = @_;
  my @found;
  while ($text =~ /((?:^|\n)[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*)((?:(?:public|open|package|internal|fileprivate|private|final|indirect)\s+)*)(class|struct|enum|protocol|actor|typealias)\s+(\w+)/g) {
    my ($attributes, $modifiers, $kind, $name) = ($1, $2, $3, $4);
    my $offset = $-[4];
    next if $kind eq 'class' && $name eq 'func';
    my $access = $modifiers =~ /\b(public|open)\b/ ? 'public' : $modifiers =~ /\bpackage\b/ ? 'package' : 'internal';
    my $rest = substr($text, pos($text), 400);
    my $inherited = '';
    if ($kind ne 'typealias') {
      # Skip the generic parameter list, then take what follows a colon up to the body.
      my $after = $rest;
      if ($after =~ /^\s*</) {
        my $depth = 0;
        my $k = 0;
        for (; $k < length $after; $k++) {
          my $c = substr($after, $k, 1);
          $depth++ if $c eq '<';
          if ($c eq '>' && substr($after, $k - 1, 1) ne '-') { $depth--; last if $depth == 0 }
        }
        $after = substr($after, $k + 1);
      }
      ($inherited) = $after =~ /^\s*:\s*([^{]*?)\s*(?:\bwhere\b[^{]*)?\{/s;
      $inherited //= '';
    }
    push @found, [$name, $kind, $access, $inherited, $offset];
  }
  return @found;
}

# Every .swift file under the given folders, sorted.
sub swift_files {
  my @roots = @_;
  my @files;
  for my $root (@roots) {
    next unless -d $root;
    open my $find, '-|', 'find', $root, '-name', '*.swift', '-type', 'f' or die "find: $!\n";
    push @files, map { chomp; $_ } <$find>;
    close $find;
  }
  return sort @files;
}

1;
