#!/usr/bin/env perl
# Writes ReactiveCore's operator table (a DocC article) to standard output: every public
# operator declared on `Publisher`, the publisher type it returns, the file that declares
# it, and the engine that runs it, all read from the sources. `.ci/docs-drift`
# regenerates the article and fails when the committed one differs, so the table cannot
# drift from the code.
#
# The engine is found the way a reader would find it: the returned publisher's
# `receive(subscriber:)` (or, for a subscriber such as `sink`, the operator's own body)
# names the internal subscriber or subscription it attaches; a subscription class that
# inherits from an internal engine class shows that class, and the state machine or rule
# among its type arguments.
#
# Usage: perl Scripts/operator-table.pl > Sources/ReactiveCore/ReactiveCore.docc/Articles/OperatorTable.md
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use SwiftSource qw(read_clean block_end declarations swift_files);

my $module = 'Sources/ReactiveCore';
my @files = swift_files($module);
my (%text, %types);
for my $file (@files) {
  $text{$file} = read_clean($file);
  for my $declaration (declarations($text{$file})) {
    my ($name, $kind, $access, $inherited) = @$declaration;
    push @{ $types{$name} }, { file => $file, kind => $kind, access => $access, inherited => $inherited };
  }
}

# The declaration of a type name, preferring the one in the given file.
sub find_type {
  my ($name, $file) = @_;
  my $all = $types{$name} or return;
  my ($here) = grep { $_->{file} eq $file } @$all;
  return $here // $all->[0];
}

# A balanced span starting at $start in $text (which holds $open there).
sub balanced {
  my ($text, $start, $open, $close) = @_;
  my $depth = 0;
  for my $k ($start .. length($text) - 1) {
    my $c = substr($text, $k, 1);
    if ($c eq $open) { $depth++ }
    elsif ($c eq $close && !($close eq '>' && substr($text, $k - 1, 1) eq '-')) {
      $depth--;
      return $k if $depth == 0;
    }
  }
  return length($text) - 1;
}

# The argument labels of a parameter list, as Swift writes a function's name.
sub labels {
  my ($parameters) = @_;
  my ($depth, $current, @parts) = (0, '');
  for my $c (split //, $parameters) {
    if ($c =~ /[(<\[]/) { $depth++ }
    elsif ($c =~ /[)\]]/ || ($c eq '>' && substr($current, -1) ne '-')) { $depth-- }
    if ($c eq ',' && $depth == 0) { push @parts, $current; $current = ''; next }
    $current .= $c;
  }
  push @parts, $current if $current =~ /\S/;
  return join '', map { /^\s*(\w+)/ ? "$1:" : '' } @parts;
}

# The internal types a body names, in order of first use, with what they build on.
sub engines_in {
  my ($body, $file) = @_;
  my (%seen, @engines);
  while ($body =~ /\b((?:Subscribers\.)?[A-Z]\w*)/g) {
    my $name = $1;
    next if $seen{$name}++;
    my $public_subscriber = $name =~ s/^Subscribers\.//;
    my $type = find_type($name, $file) or next;
    next unless $type->{access} ne 'public' || $public_subscriber;
    next if $type->{kind} eq 'protocol' || $type->{kind} eq 'typealias';
    my $shown = ($public_subscriber ? 'Subscribers.' : '') . $name;
    my ($base, $arguments) = $type->{inherited} =~ /^(\w+)\s*(<.*)?/s;
    if ($type->{kind} eq 'class' && $base && (my $parent = find_type($base, $file))) {
      if ($parent->{kind} eq 'class' && $parent->{access} ne 'public') {
        my @machines = grep { my $t = find_type($_, $file); $t && $t->{access} ne 'public' && $_ ne $base }
          ($arguments // '') =~ /\b([A-Z]\w*(?:StateMachine|Machine|Rule|State))\b/g;
        my %unique;
        @machines = grep { !$unique{$_}++ } @machines;
        $shown = "`$shown` on `$base`" . (@machines ? ' (' . join(', ', map {"`$_`"} @machines) . ')' : '');
        push @engines, $shown;
        next;
      }
    }
    push @engines, "`$shown`";
  }
  return @engines;
}

# The `receive(subscriber:)` body of every public type declared in an
# `extension Publishers` block, by the type's name.
my %receive_body;
for my $file (@files) {
  my $text = $text{$file};
  while ($text =~ /(?:^|\n)extension\s+Publishers\s*\{/g) {
    my $open = $+[0] - 1;
    my $end = block_end($text, $open);
    my $block = substr($text, $open, $end - $open + 1);
    while ($block =~ /\n  public\s+(?:final\s+)?(?:struct|class)\s+(\w+)[^{]*\{/g) {
      my $name = $1;
      my $type_open = $+[0] - 1;
      my $type_end = block_end($block, $type_open);
      my $type_body = substr($block, $type_open, $type_end - $type_open + 1);
      if ($type_body =~ /func\s+receive\s*<[^>]*>\s*\(\s*subscriber\s*:[^{]*\{/g) {
        my $body_open = $+[0] - 1;
        my $body_end = block_end($type_body, $body_open);
        $receive_body{$name} = [$file, substr($type_body, $body_open, $body_end - $body_open + 1), $type_body];
      }
    }
  }
}

# The engines of a `Publishers` type: those its `receive(subscriber:)` names, or, when it
# hands the subscriber to a stored publisher of another `Publishers` type, that type's.
sub publisher_engines {
  my ($name, $depth) = @_;
  my $found = $receive_body{$name} or return;
  my ($file, $body, $type_body) = @$found;
  my @engines = engines_in($body, $file);
  return @engines if @engines || $depth > 3;
  if ($body =~ /\b(\w+)\.receive\(\s*subscriber\s*:/ && $1 ne 'upstream') {
    my $property = $1;
    if ($type_body =~ /\b(?:let|var)\s+\Q$property\E\s*:\s*(?:Publishers\.)?(\w+)/ && $receive_body{$1}) {
      my @inner = publisher_engines($1, $depth + 1);
      return ("`Publishers.$1`" . (@inner ? ': ' . join(', ', @inner) : ''));
    }
  }
  return;
}

# Every public function at the top level of an `extension Publisher` block.
my %rows;
my @operator_names = do {
  my %names;
  for my $file (@files) { $names{$1} = 1 while $text{$file} =~ /\bpublic\s+func\s+(\w+)/g }
  sort keys %names;
};
for my $file (@files) {
  my $text = $text{$file};
  while ($text =~ /(?:^|\n)extension\s+Publisher\b[^{]*\{/g) {
    my $open = $+[0] - 1;
    my $end = block_end($text, $open);
    my $cursor = $open + 1;
    pos($text) = $cursor;
    while ($text =~ /\G(?:[^{}]*?)(\{|\}|\bpublic\s+func\s+(\w+))/gs) {
      last if $-[1] >= $end;
      if ($1 eq '{') {
        pos($text) = block_end($text, $-[1]) + 1;
        next;
      }
      last if $1 eq '}';
      my $name = $2;
      my $k = $+[2];
      $k++ while substr($text, $k, 1) =~ /\s/;
      $k = balanced($text, $k, '<', '>') + 1 if substr($text, $k, 1) eq '<';
      $k++ while substr($text, $k, 1) =~ /\s/;
      my $close = balanced($text, $k, '(', ')');
      my $parameters = substr($text, $k + 1, $close - $k - 1);
      my $body_open = index($text, '{', $close);
      my $signature_tail = substr($text, $close + 1, $body_open - $close - 1);
      my ($returns) = $signature_tail =~ /->\s*(.*?)\s*(?:\bwhere\b.*)?$/s;
      $returns //= 'Void';
      $returns =~ s/\s+/ /g;
      my $body_end = block_end($text, $body_open);
      my $body = substr($text, $body_open, $body_end - $body_open + 1);
      pos($text) = $body_end + 1;

      my ($publisher) = $returns =~ /^(Publishers\.\w+(?:\.\w+)*|[A-Z]\w*(?:\.\w+)*)/;
      $publisher //= $returns;
      my @engines;
      @engines = publisher_engines($1, 0) if $publisher =~ /^Publishers\.(\w+)$/;
      @engines = engines_in($body, $file) unless @engines;
      if (!@engines) {
        # An operator written in terms of another: name the one it calls.
        my ($called) = grep { $body =~ /\b\Q$_\E\s*[({]/ } (grep({ $_ ne $name } @operator_names), $name);
        @engines = ("through `$called`") if $called;
      }
      my $operator = "$name(" . labels($parameters) . ')';
      (my $short = $file) =~ s{^\Q$module\E/}{};
      my $row = "| `$operator` | `$publisher` | `$short` | " . (join(', ', @engines) || '—') . " |";
      $rows{"$operator\t$publisher\t$short"} = $row;
    }
  }
}

print <<'HEADER';
# Operator table

Every public operator of ReactiveCore, the file that declares it and the engine that
runs it.

## Overview

This article is generated from the sources by `Scripts/operator-table.pl`, and CI
(`.ci/docs-drift`) regenerates it and fails when it differs from the committed one: it
cannot fall behind the code. Regenerate it after adding or moving an operator:

```sh
perl Scripts/operator-table.pl > Sources/ReactiveCore/ReactiveCore.docc/Articles/OperatorTable.md
```

The engine column names the internal type that the returned publisher's
`receive(subscriber:)` attaches upstream (for a subscriber such as `sink`, the one the
operator builds), and, where that type is a subscription built on a shared engine class,
the class and the state machine or rule it carries. <doc:Internals> says what each engine
is for. An operator that returns a publisher of another operator (`replaceNil(with:)`
returns a `map`) shows that operator's engine.

HEADER
print "| Operator | Returns | Declared in | Engine |\n| --- | --- | --- | --- |\n";
print "$rows{$_}\n" for sort { lc($a) cmp lc($b) or $a cmp $b } keys %rows;
