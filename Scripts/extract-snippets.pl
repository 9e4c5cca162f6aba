#!/usr/bin/perl
# extract-snippets.pl MARKDOWN OUTDIR NAME
#
# Turns the ```swift blocks of one markdown file into Swift files that `.ci/doc-snippets`
# type-checks against the built modules:
#
# - OUTDIR/NAME.swift: the file's blocks, in order, as one top-level Swift file;
# - OUTDIR/NAME-alone-N.swift: each block marked `<!-- snippet: alone -->`, on its own.
#
# Markers are HTML comments before a block (DocC and GitHub do not render them); only
# blank lines and other markers may stand between a marker and its block:
#
#   <!-- snippet: skip (WHY) -->  not compiled, for the reason WHY (required): deliberately
#                                partial, shows a compile error, or not Swift for this package
#   <!-- snippet: alone -->       compiled in a file of its own
#   <!-- snippet-setup            hidden Swift lines, added before the next block (in its file,
#   let path = "/tmp/x"           joined or alone; dropped with a skipped block): declarations
#   -->                           a fragment uses but the reader need not see
#
# Every block and setup is preceded by `#sourceLocation(file:line:)`, so the compiler
# reports errors at the markdown file and line. Prints "CHECKED SKIPPED" counts and one
# "skip FILE:LINE (WHY)" line per skipped block.
use strict;
use warnings;

my ($file, $out, $name) = @ARGV;
die "usage: $0 MARKDOWN OUTDIR NAME\n" unless defined $name;
open(my $in, '<:encoding(UTF-8)', $file) or die "$file: $!\n";

my $header = <<'SWIFT';
import Dispatch
import Observation
import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

SWIFT

sub location { my ($line) = @_; return "#sourceLocation(file: \"$file\", line: $line)\n"; }

sub write_file {
  my ($path, $text) = @_;
  open(my $o, '>:encoding(UTF-8)', $path) or die "$path: $!\n";
  print $o $header, $text, "#sourceLocation()\n";
  close $o;
}

my ($in_block, $in_setup) = (0, 0);
my ($mode, $indent, $block, $setup) = ('', '', '', '');
my ($pending, $why, $block_why) = ('', '', '');
my ($joined, $alone, $checked, $line) = ('', 0, 0, 0);
my @skipped;

while (my $l = <$in>) {
  $line++;
  if ($in_setup) {
    if ($l =~ /^\s*-->\s*$/) { $in_setup = 0; next; }
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
      $block = location($line + 1);
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
      push @skipped, "$file:" . ($line - ($block =~ tr/\n//)) . " ($block_why)";
    } elsif ($mode eq 'alone') {
      $alone++;
      $checked++;
      write_file("$out/$name-alone-$alone.swift", $setup . $block);
    } else {
      $checked++;
      $joined .= $setup . $block;
    }
    $setup = '';
    next;
  }
  $l =~ s/^\Q$indent\E//;
  $block .= $l;
}
die "$file: unterminated ```swift block or snippet-setup comment\n" if $in_block || $in_setup;
die "$file: a snippet marker or setup at the end of the file\n" if $pending ne '' || $setup ne '';
write_file("$out/$name.swift", $joined) if $joined ne '';
print "$checked ", scalar(@skipped), "\n";
print "skip $_\n" for @skipped;
