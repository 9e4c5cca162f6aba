#!/usr/bin/env perl
# Resolves every name that the DocC articles and the README put in code voice against
# the sources, so that a renamed or removed type, member or file cannot stay in the docs.
#
# A code span (`…` or ``…``, outside fenced code blocks) is checked when it looks like
# a name:
# - a type path, `Type`, `Type.member`, `Publishers.Map<Upstream, T>`,
#   `Lock.adopt(_:into:)`: every capitalised component must be a type declared in the
#   repository's Swift sources (Sources, Tests, Examples, Benchmarks, Fuzz), a module of
#   this package, or a name listed in Scripts/doc-names-external.txt (the standard
#   library, Foundation, Combine and other names from outside); every lower-case member
#   must be declared somewhere as a func, var, let, case or associated value label;
# - a Swift file or a folder, `SubjectConduit.swift`, `Internal/Timing/`: some file or
#   folder of the repository's sources must end with that path.
# Everything else (expressions, shell commands, constants in capitals) is left alone.
#
# Usage: perl Scripts/check-doc-names.pl [markdown files…]
#   (default: README.md and every DocC catalog's markdown). Exit 1 on any unresolved name.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use SwiftSource qw(read_clean declarations swift_files);

my @roots = grep { -d } qw(Sources Tests Examples Benchmarks/Sources Benchmarks/Benchmarks Fuzz/Sources);
my @files = swift_files(@roots);
my (%types, %members);
for my $file (@files) {
  my $text = read_clean($file);
  $types{ $_->[0] } = 1 for declarations($text);
  $members{$1} = 1 while $text =~ /\b(?:func|var|let|case|associatedtype)\s+`?(\w+)/g;
  # Enum cases listed after a comma, and the labels of a function or an associated value.
  while ($text =~ /\bcase\s+([^\n{]*)/g) {
    my $list = $1;
    $members{$1} = 1 while $list =~ /(?:^|,)\s*`?(\w+)/g;
  }
  $members{$1} = 1 while $text =~ /[(,]\s*(\w+)\s+\w+\s*:/g;
  $members{$1} = 1 while $text =~ /[(,]\s*(\w+)\s*:/g;
  $members{init} = 1;
  # Generic parameters stand for types in prose too (`StoreKey`'s `Value`).
  while ($text =~ /\b(?:class|struct|enum|actor|func|init)\s*\w*\s*<([^<>]*(?:<[^<>]*>[^<>]*)*)>/g) {
    my $parameters = $1;
    $types{$1} = 1 while $parameters =~ /(?:^|,)\s*([A-Z]\w*)/g;
  }
}
# Modules of this package and of its Benchmarks and Compatibility packages, and the folders
# of the sources.
# The packages under Compatibility (OpenCombine's module names) count too.
my %modules = map { s{.*/}{}r => 1 } grep { -d }
  glob('Sources/* Tests/* Examples/* Benchmarks/Sources/* Compatibility/*/Sources/*');
$types{$_} = 1 for keys %modules, 'Benchmarks', 'Fuzz';
my @paths = @files;
open my $find, '-|', 'find', @roots, '-type', 'd' or die "find: $!\n";
push @paths, map { chomp; "$_/" } <$find>;
close $find;

my $external_list = "$FindBin::Bin/doc-names-external.txt";
open my $external, '<', $external_list or die "$external_list: $!\n";
while (<$external>) {
  s/#.*//;
  $types{$_} = 1 for split;
}
close $external;

my @markdown = @ARGV ? @ARGV : ('README.md', glob('Sources/*/*.docc/*.md Sources/*/*.docc/*/*.md'));
my $unresolved = 0;
for my $markdown (@markdown) {
  open my $fh, '<', $markdown or die "$markdown: $!\n";
  my $fenced = 0;
  my $line_number = 0;
  while (my $line = <$fh>) {
    $line_number++;
    if ($line =~ /^\s*(```|~~~)/) { $fenced = !$fenced; next }
    next if $fenced;
    while ($line =~ /(`{1,2})([^`]+?)\1(?!`)/g) {
      my $span = $2;
      for my $problem (problems($span)) {
        print "$markdown:$line_number: `$span`: $problem\n";
        $unresolved++;
      }
    }
  }
  close $fh;
}
if ($unresolved) {
  print "check-doc-names: $unresolved name(s) in code voice do not resolve against the sources\n";
  exit 1;
}
print "check-doc-names: every name in code voice in ", scalar(@markdown), " markdown files resolves\n";

# What does not resolve in one code span, if it is a name at all.
sub problems {
  my ($span) = @_;
  $span =~ s/^\s+|\s+$//g;
  if ($span =~ m{^[\w+.-]*(?:/[\w+.-]*)*\.swift$} || $span =~ m{^(?:[A-Z]\w*/)+$}) {
    return if grep { $_ eq $span || $_ =~ m{/\Q$span\E$} } @paths;
    return ("no source file or folder ends with this path");
  }
  # A type path: capitalised first component, dotted members, optional generic arguments
  # and an optional argument-label list.
  return unless $span =~ /^([A-Z]\w*(?:\.\w+)*)(<[^()]*>)?(\.\w+)*(\((?:\w+:|_:)*\))?$/;
  my $path = $1 . ($3 // '');
  my @components = split /\./, $path;
  return if $components[0] =~ /^[A-Z0-9_]+$/;    # a constant in capitals, such as SIGKILL
  my @problems;
  for my $component (@components) {
    if ($component =~ /^[A-Z]/) {
      push @problems, "no type, module or listed outside name `$component`" unless $types{$component};
    } else {
      push @problems, "no declaration of `$component`" unless $members{$component} || $component eq 'self' || $component eq 'Type';
    }
  }
  return @problems;
}
