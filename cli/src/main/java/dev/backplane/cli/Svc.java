package dev.backplane.cli;
public final class Svc { public static void main(String[] a) {} }
