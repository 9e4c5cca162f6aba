#!/usr/bin/perl
# extract-snippets.pl MARKDOWN OUTDIR NAME
#
# Turns the ```swift blocks of one markdown file into Swift files that `.ci/doc-snippets`
# type-checks against the built modules:
#
# - OUTDIR/NAME.swift: the file's blocks, in order, as one top-level Swift file;
# - OUTDIR/NAME-alone-N.swift: each block marked `<!-- snippet: alone -->`, on its own.
#
# No import is added that the reader does not see: a block compiles with the `import` lines
# of the page's compiled (not skipped) ```swift blocks and nothing else. The joined file
# holds them where the blocks put them (Swift accepts an import after other top-level code,
# and it applies to the whole file); every generated file also starts with those of the
# page's imports that its own blocks lack, so an `alone` block compiles with the imports
# the page shows plus its own, and the joined blocks with those an `alone` block shows. An
# import inside `#if … #endif` is carried with its whole `#if` group. Imports in a skipped
# block are not used (it may import what this platform lacks, such as Combine).
#
# Markers are HTML comments before a block (DocC and GitHub do not render them); only
# blank lines and other markers may stand between a marker and its block:
#
#   <!-- snippet: skip (WHY) -->  not compiled, for the reason WHY (required): deliberately
#                                partial, shows a compile error, or not Swift for this package
#   <!-- snippet: alone -->       compiled in a file of its own
#   <!-- snippet-setup            hidden Swift lines, added before the next block (in its file,
#   let path = "/tmp/x"           joined or alone; dropped with a skipped block): declarations
#   -->                           a fragment uses but the reader need not see; never an
#                                `import` (an error): imports go in a visible block
#
# Every block, setup and carried import is preceded by `#sourceLocation(file:line:)`, so
# the compiler reports errors at the markdown file and line. Prints "CHECKED SKIPPED"
# counts and one "skip FILE:LINE (WHY)" line per skipped block.
use strict;
use warnings;

my ($file, $out, $name) = @ARGV;
die "usage: $0 MARKDOWN OUTDIR NAME\n" unless defined $name;
open(my $in, '<:encoding(UTF-8)', $file) or die "$file: $!\n";

# An import declaration: attributes (`@testable`, `@_spi(X)`, `@preconcurrency`), an
# optional kind (`import struct M.T`), the module path, an optional trailing comment.
my $import_re = qr{^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?[\w.]+\s*(?://.*)?$};

sub location { my ($line) = @_; return "#sourceLocation(file: \"$file\", line: $line)\n"; }

# The imports of one compiled block, as [KEY, TEXT] pairs: KEY (whitespace and comments
# dropped) tells duplicates apart, TEXT is the import line or its whole `#if` group, after
# a #sourceLocation for its markdown line.
sub block_imports {
  my ($first, @lines) = @_;
  my @found;
  my ($depth, $group, $group_has, $group_line) = (0, '', 0, 0);
  for my $i (0 .. $#lines) {
    my $l = $lines[$i];
    my $at = $first + $i;
    if ($depth == 0 && $l =~ /^\s*#if\b/) {
      ($depth, $group, $group_has, $group_line) = (1, $l, 0, $at);
      next;
    }
    if ($depth > 0) {
      $group .= $l;
      $depth++ if $l =~ /^\s*#if\b/;
      $depth-- if $l =~ /^\s*#endif\b/;
      $group_has = 1 if $l =~ $import_re;
      if ($depth == 0 && $group_has) {
        (my $key = $group) =~ s{//.*$}{}mg;
        $key =~ s/\s+/ /g;
        push @found, [$key, location($group_line) . $group];
      }
      next;
    }
    next unless $l =~ $import_re;
    (my $key = $l) =~ s{//.*$}{};
    $key =~ s/\s+/ /g;
    $key =~ s/^ | $//g;
    push @found, [$key, location($at) . $l];
  }
  return @found;
}

my ($in_block, $in_setup) = (0, 0);
my ($mode, $indent, $block, $setup, $block_line) = ('', '', '', '', 0);
my ($pending, $why, $block_why) = ('', '', '');
my ($checked, $line) = (0, 0);
my (@lines, @skipped, @alone, @page_imports);
my $joined = { text => '', keys => {} };

while (my $l = <$in>) {
  $line++;
  if ($in_setup) {
    if ($l =~ /^\s*-->\s*$/) { $in_setup = 0; next; }
    die "$file:$line: a snippet-setup may not import (" . ($l =~ s/^\s+|\s+$//gr)
      . "): hidden setup would give the block an import the reader never sees; put it"
      . " in a visible ```swift block of the page\n"
      if $l =~ /^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+\w/;
    $setup .= $l;
    next;
  }
  if (!$in_block) {
    if ($l =~ /^\s*<!--\s*snippet:\s*alone\s*-->\s*$/) { $pending = 'alone'; next; }
    if ($l =~ /^\s*<!--\s*snippet:\s*skip\s*\((.+)\)\s*-->\s*$/) { ($pending, $why) = ('skip', $1); next; }
    if ($l =~ /^\s*<!--\s*snippet-setup\s*$/) {
      $in_setup = 1;
      $setup .= location($line + 1);
      next;
    }
    die "$file:$line: unknown snippet marker (skip needs a reason: <!-- snippet: skip (WHY) -->)\n" if $l =~ /<!--\s*snippet/;
    if ($l =~ /^(\s*)```swift\s*$/) {
      ($in_block, $indent, $mode, $block_why, $pending, $why) = (1, $1, $pending || 'joined', $why, '', '');
      ($block, $block_line, @lines) = (location($line + 1), $line + 1);
      next;
    }
    if ($l =~ /\S/) {
      die "$file:$line: a snippet marker or setup must come right before a ```swift block\n"
        if $pending ne '' || $setup ne '';
    }
    next;
  }
  if ($l =~ /^\s*```\s*$/) {
    $in_block = 0;
    if ($mode eq 'skip') {
      push @skipped, "$file:" . ($block_line - 1) . " ($block_why)";
    } else {
      $checked++;
      my @imports = block_imports($block_line, @lines);
      push @page_imports, @imports;
      my $target = $joined;
      if ($mode eq 'alone') { $target = { text => '', keys => {} }; push @alone, $target; }
      $target->{text} .= $setup . $block;
      $target->{keys}{ $_->[0] } = 1 for @imports;
    }
    $setup = '';
    next;
  }
  $l =~ s/^\Q$indent\E//;
  $block .= $l;
  push @lines, $l;
}
die "$file: unterminated ```swift block or snippet-setup comment\n" if $in_block || $in_setup;
die "$file: a snippet marker or setup at the end of the file\n" if $pending ne '' || $setup ne '';

# Writes one generated file: the page's imports its own blocks lack, then its blocks.
sub write_file {
  my ($path, $entry) = @_;
  my ($prefix, %seen) = ('');
  for my $import (@page_imports) {
    next if $entry->{keys}{ $import->[0] } || $seen{ $import->[0] }++;
    $prefix .= $import->[1];
  }
  open(my $o, '>:encoding(UTF-8)', $path) or die "$path: $!\n";
  print $o $prefix, $entry->{text}, "#sourceLocation()\n";
  close $o;
}
write_file("$out/$name.swift", $joined) if $joined->{text} ne '';
write_file("$out/$name-alone-$_.swift", $alone[$_ - 1]) for 1 .. @alone;
print "$checked ", scalar(@skipped), "\n";
print "skip $_\n" for @skipped;
