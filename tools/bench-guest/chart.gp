# SPDX-License-Identifier: GPL-2.0
# tools/bench: base (and the v2 series, peer=1) vs patched per workload,
# from report.py's chart.dat (columns: name base patched ratio peer
# peer_ratio, '-' where the peer did not run a workload).
# gnuplot -e "datafile='...'; outfile='...'; peer=0|1" chart.gp
if (!exists("peer")) peer = 0
set terminal svg size 1200,560 dynamic noenhanced font "sans,12" background rgb "white"
set output outfile
set datafile missing "-"
set title "skb_pool series: instructions per packet (per head for skb-head-*), qemu -icount shift=0\nlabels: patched/base, lower is better"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "instructions per packet (per head for skb-head-*)"
set bmargin 4
set grid ytics
set xtics nomirror font ",10"
set key top right
# Clustered bars, gap 1: with n bars a cluster, each is 1/(n+1) wide and
# the last sits (n-1)/(2(n+1)) right of the cluster's centre.
if (peer) {
	plot datafile using 2:xtic(1) title "base" lc rgb "#7f7f7f", \
	     '' using 5 title "v2 series" lc rgb "#ff7f0e", \
	     '' using 3 title "this series" lc rgb "#1f77b4", \
	     '' using ($0 + 0.25):($3):(sprintf("%.3f", $4)) with labels notitle offset 0,0.7 font ",9"
} else {
	plot datafile using 2:xtic(1) title "base" lc rgb "#7f7f7f", \
	     '' using 3 title "patched" lc rgb "#1f77b4", \
	     '' using ($0 + 1.0/6):($3):(sprintf("%.3f", $4)) with labels notitle offset 0,0.7 font ",10"
}
