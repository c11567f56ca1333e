// SPDX-License-Identifier: GPL-2.0
/*
 * skbbench: the guest side of tools/bench. Static, runs as the only
 * process of the guest (under the init script), one vCPU, qemu -icount
 * shift=0: a CLOCK_MONOTONIC nanosecond is one guest instruction.
 *
 *   skbbench tun-write  SIZE PACKETS RUNS
 *   skbbench tun-echo   SIZE PACKETS RUNS
 *   skbbench vhost-batch SIZE PACKETS RUNS
 *   skbbench tap-vhost-batch SIZE PACKETS RUNS
 *   skbbench veth-xdp   SIZE PACKETS RUNS
 *   skbbench tun-udp-local SIZE PACKETS RUNS
 *   skbbench vhost-rx   SIZE PACKETS RUNS
 *   skbbench vhost-forward SIZE PACKETS RUNS
 *   skbbench udp-lo     SIZE PACKETS RUNS
 *   skbbench udp-lo-drop SIZE PACKETS RUNS
 *   skbbench unix-dgram SIZE PACKETS RUNS     (SIZE: the datagram's bytes)
 *   skbbench tun-echo-xcpu SIZE PACKETS RUNS      (2 CPUs)
 *   skbbench vhost-batch-xcpu SIZE PACKETS RUNS   (2 CPUs)
 *   skbbench vhost-rx-xcpu SIZE PACKETS RUNS      (2 CPUs)
 *   skbbench vhost-forward-xcpu SIZE PACKETS RUNS (2 CPUs)
 *   skbbench vpn-tcp    0 PACKETS RUNS         (PACKETS KiB a run)
 *   skbbench skb-head   RUNS            (reads /proc/skb_head_bench)
 *   skbbench rng-seed                   (init runs it once, at boot)
 *
 * SIZE is the length of the IPv4/UDP packet (the L3 packet; a TAP frame
 * adds its 14-byte Ethernet header, vhost its 12-byte virtio_net_hdr).
 * Every run prints one line
 *   BENCH <workload> run=<i> packets=<n> ns=<delta> slab=<heads>
 * where slab is the number of skb heads allocated from the slab during
 * the run (alloc_fastpath + alloc_slowpath of skbuff_head_cache,
 * CONFIG_SLUB_STATS). One untimed warm-up run of PACKETS comes first.
 * The *-xcpu workloads (2 vCPUs, see "Cross-CPU workloads" below) also
 * print an XCPU line per run, what shows that the heads crossed CPUs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>
#include <linux/vhost.h>
#include <arpa/inet.h>
#include <net/if_arp.h>
#include <netinet/tcp.h>
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <limits.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* <net/if.h> and <linux/if.h> do not mix */
unsigned int if_nametoindex(const char *ifname);

#define die(...) do { fprintf(stderr, "skbbench: " __VA_ARGS__); \
	fprintf(stderr, " (%s)\n", strerror(errno)); exit(1); } while (0)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * Marks for tools/bench-attribute's QEMU plugin (insncount.c): a 7-byte
 * NOP, nopl disp32(%rax), whose displacement says what it marks: 1 the
 * start of a timed run, 2 its end, 3 the end of the workload. Anywhere
 * else it is a NOP: two instructions in each timed run.
 */
#define BENCH_MARK(kind) \
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x534b4200 + " #kind ::: "memory")

static uint64_t window_start(void)
{
	uint64_t t = now_ns();

	BENCH_MARK(1);
	return t;
}

static uint64_t window_end(void)
{
	BENCH_MARK(2);
	return now_ns();
}

static uint64_t read_u64(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die("open %s", path);
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		die("read %s", path);
	close(fd);
	return strtoull(buf, NULL, 10);
}

static uint64_t slab_heads(void)
{
	/* Without CONFIG_SLUB_STATS (a test on some other kernel): 0. */
	if (access("/sys/kernel/slab/skbuff_head_cache/alloc_fastpath", R_OK))
		return 0;
	return read_u64("/sys/kernel/slab/skbuff_head_cache/alloc_fastpath") +
	       read_u64("/sys/kernel/slab/skbuff_head_cache/alloc_slowpath");
}

static void sh(const char *fmt, const char *arg)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg, arg);
	if (system(cmd) != 0) {
		errno = 0;
		die("'%s' failed", cmd);
	}
}

static int tun_open(const char *name, int flags, int nonblock)
{
	struct ifreq ifr = { 0 };
	int fd = open("/dev/net/tun", O_RDWR | (nonblock ? O_NONBLOCK : 0));

	if (fd < 0)
		die("open /dev/net/tun");
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	ifr.ifr_flags = flags;
	if (ioctl(fd, TUNSETIFF, &ifr) < 0)
		die("TUNSETIFF %s", name);
	return fd;
}

static void get_mac(const char *name, unsigned char *mac)
{
	struct ifreq ifr = { 0 };
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (s < 0 || ioctl(s, SIOCGIFHWADDR, &ifr) < 0)
		die("SIOCGIFHWADDR %s", name);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(s);
}

/* ------------------------------------------------------------------ */
/*
 * Just enough rtnetlink for the devices busybox's ip cannot make: a veth
 * pair with named ends, a macvtap on a lower device, an XDP program on a
 * device. One request at a time, acknowledged.
 */
struct nlreq {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
	char attrs[512];
};

static struct rtattr *nla_put(struct nlreq *r, int type, const void *data, int len)
{
	struct rtattr *a = (void *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

static void nla_end(struct nlreq *r, struct rtattr *nest)
{
	nest->rta_len = (char *)r + r->nh.nlmsg_len - (char *)nest;
}

static void nl_init(struct nlreq *r, int type, int flags)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_LENGTH(sizeof(r->ifi));
	r->nh.nlmsg_type = type;
	r->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->ifi.ifi_family = AF_UNSPEC;
}

static void nl_talk(struct nlreq *r, const char *what)
{
	char buf[1024];
	struct nlmsghdr *h = (void *)buf;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0 || send(fd, r, r->nh.nlmsg_len, 0) < 0 ||
	    recv(fd, buf, sizeof(buf), 0) < (int)NLMSG_LENGTH(sizeof(int)))
		die("netlink: %s", what);
	if (h->nlmsg_type == NLMSG_ERROR && *(int *)NLMSG_DATA(h)) {
		errno = -*(int *)NLMSG_DATA(h);
		die("netlink: %s", what);
	}
	close(fd);
}

/* Delete device @name (a veth pair's end: both ends, and what is on them) */
static void nl_dellink(const char *name)
{
	struct nlreq r;

	nl_init(&r, RTM_DELLINK, 0);
	nla_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	nl_talk(&r, "delete link");
}

/* A veth pair @a <-> @b */
static void veth_pair(const char *a, const char *b)
{
	struct rtattr *info, *data, *peer;
	struct ifinfomsg pifi = { .ifi_family = AF_UNSPEC };
	struct nlreq r;

	nl_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	nla_put(&r, IFLA_IFNAME, a, strlen(a) + 1);
	info = nla_put(&r, IFLA_LINKINFO, NULL, 0);
	nla_put(&r, IFLA_INFO_KIND, "veth", 4);
	data = nla_put(&r, IFLA_INFO_DATA, NULL, 0);
	peer = nla_put(&r, VETH_INFO_PEER, &pifi, sizeof(pifi));
	nla_put(&r, IFLA_IFNAME, b, strlen(b) + 1);
	nla_end(&r, peer);
	nla_end(&r, data);
	nla_end(&r, info);
	nl_talk(&r, "veth pair");
}

/* A macvtap @name on @lower (its default mode, VEPA: out of @lower) */
static void macvtap(const char *name, const char *lower)
{
	int link = if_nametoindex(lower);
	struct rtattr *info;
	struct nlreq r;

	if (!link)
		die("no %s", lower);
	nl_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	nla_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	nla_put(&r, IFLA_LINK, &link, sizeof(link));
	info = nla_put(&r, IFLA_LINKINFO, NULL, 0);
	nla_put(&r, IFLA_INFO_KIND, "macvtap", 7);
	nla_end(&r, info);
	nl_talk(&r, "macvtap");
}

/*
 * An XDP program (driver mode) on @dev: XDP_PASS, or, @to_ifindex
 * non-zero, bpf_redirect(@to_ifindex, 0). Loaded with the bpf() syscall
 * (the interpreter: the bench kernels have no BPF JIT).
 */
static void xdp_attach(const char *dev, int to_ifindex)
{
	struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_insn redirect[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = to_ifindex },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_redirect },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	struct rtattr *xdp;
	struct nlreq r;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (uintptr_t)(to_ifindex ? redirect : pass);
	attr.insn_cnt = to_ifindex ? 4 : 2;
	attr.license = (uintptr_t)"GPL";
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		die("BPF_PROG_LOAD");
	nl_init(&r, RTM_SETLINK, 0);
	r.ifi.ifi_index = if_nametoindex(dev);
	xdp = nla_put(&r, IFLA_XDP, NULL, 0);
	nla_put(&r, IFLA_XDP_FD, &fd, sizeof(fd));
	nla_end(&r, xdp);
	nl_talk(&r, "IFLA_XDP");
}

/* An IPv4/UDP packet of @len bytes from @src to @dst, TTL 64. */
static void ipv4_udp(unsigned char *p, int len, uint32_t src, uint32_t dst)
{
	uint32_t sum = 0;
	int i;

	memset(p, 0, len);
	p[0] = 0x45;
	p[2] = len >> 8; p[3] = len;
	p[8] = 64; p[9] = 17;
	memcpy(p + 12, &src, 4);
	memcpy(p + 16, &dst, 4);
	for (i = 0; i < 20; i += 2)
		sum += (p[i] << 8) | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	p[10] = sum >> 8; p[11] = sum;
	/* UDP 4000 -> 5000, length, checksum 0 (none) */
	p[20] = 4000 >> 8; p[21] = 4000 & 0xff;
	p[22] = 5000 >> 8; p[23] = 5000 & 0xff;
	p[24] = (len - 20) >> 8; p[25] = len - 20;
	for (i = 28; i < len; i++)
		p[i] = i;
}

static uint32_t ip4(int a, int b, int c, int d)
{
	return htonl((a << 24) | (b << 16) | (c << 8) | d);
}

/*
 * Results are kept until the workload ends: console output during a
 * timed run would cost the guest serial interrupts inside the run.
 */
static char results[64][256];
static int nresults;

static void report(const char *name, int run, long n, uint64_t ns, uint64_t slab)
{
	if (nresults < 64)
		snprintf(results[nresults++], sizeof(results[0]),
			 "BENCH %s run=%d packets=%ld ns=%llu slab=%llu\n", name, run, n,
			 (unsigned long long)ns, (unsigned long long)slab);
}

static void flush_results(void)
{
	int i;

	BENCH_MARK(3);

	for (i = 0; i < nresults; i++)
		fputs(results[i], stdout);
	fflush(stdout);
	nresults = 0;
}

/*
 * rng-seed: make the guest's random number generator ready before the
 * first workload. The bench kernels have no entropy source but
 * interrupts (no RDRAND in qemu's default CPU, no virtio-rng, no seed
 * from the bootloader), which credit it by guest time, that is by
 * instructions: each kernel reaches the next stage of crng_init in
 * another workload. Until the crng is ready, every get_random_u32()
 * (ip_idents_reserve() asks for one about once a jiffy on the IPv4
 * output path) takes its bytes from the base crng, and before the first
 * 128 bits are credited (CRNG_EMPTY) runs extract_entropy()'s BLAKE2s
 * over the input pool each time: a cost of where that kernel's boot has
 * got to, not of its path (it was PREEMPT_RT udp-lo-64's +15 a packet,
 * docs/bench.md). Credit 256 bits of a fixed buffer (RNDADDENTROPY,
 * root): the crng is ready at once, the same way on every kernel and
 * every boot; a bench guest needs no secret randomness. Prints "RNG
 * ready", or fails.
 */
static void rng_seed(void)
{
	union {
		struct rand_pool_info info;
		unsigned char room[sizeof(struct rand_pool_info) + 32];
	} seed;
	unsigned char byte;
	int fd, i;

	seed.info.entropy_count = 256;
	seed.info.buf_size = 32;
	for (i = 0; i < 8; i++)
		seed.info.buf[i] = 0x9e3779b9u * (i + 1);
	fd = open("/dev/urandom", O_WRONLY);
	if (fd < 0)
		die("open /dev/urandom");
	if (ioctl(fd, RNDADDENTROPY, &seed.info))
		die("RNDADDENTROPY");
	close(fd);
	/* GRND_NONBLOCK fails with EAGAIN while the crng is not ready */
	if (getrandom(&byte, 1, GRND_NONBLOCK) != 1)
		die("getrandom: the crng is not ready after RNDADDENTROPY");
	printf("RNG ready\n");
}

/* Let the console finish sending what init printed (free under sleep=off). */
static void quiesce(void)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
	usleep(200000);
}

/*
 * The drop point of tun-write and vhost-batch: packets to 127.9.9.9, a
 * loopback destination arriving on a device without route_localnet.
 * ip_route_input_slow() rejects it as a martian destination (counted in
 * /proc/net/stat/rt_cache in_martian_dst) before any FIB lookup and
 * without a dst, and ip_rcv_finish_core() drops it (kfree_skb_reason()):
 * early, fixed, the same code on both kernels. Not a blackhole route nor
 * an unroutable address: those take the no_route path, which allocates
 * a dst per packet for ip_error() (plus an inet_peer lookup, an ICMP
 * error or its rate limit, and a call_rcu() to free the dst): ~840
 * more instructions per packet and RCU softirq work inside the runs.
 * (0.0.0.0/8 is no longer martian: ipv4_is_zeronet() is addr == 0.)
 */
#define DROP_DST ip4(127, 9, 9, 9)

/* tun-write: IFF_TUN|IFF_NO_PI, blocking fd, one packet per write(). */
static void tun_write(const char *name, int size, long n, int runs)
{
	unsigned char pkt[2048];
	int fd = tun_open("bt0", IFF_TUN | IFF_NO_PI, 0);
	int r;
	long i;

	sh("ip addr add 10.0.0.1/24 dev %s && ip link set %s up", "bt0");
	ipv4_udp(pkt, size, ip4(10, 0, 0, 2), DROP_DST);
	quiesce();
	for (r = -1; r < runs; r++) {
		long cnt = n;
		uint64_t s0 = slab_heads(), t0 = window_start(), t1;

		for (i = 0; i < cnt; i++)
			if (write(fd, pkt, size) != size)
				die("write");
		t1 = window_end();
		if (r >= 0)
			report(name, r, cnt, t1 - t0, slab_heads() - s0);
	}
	close(fd);
}

/*
 * tun-echo: IFF_TAP|IFF_NO_PI, O_NONBLOCK (the build_skb() path of
 * tun_get_user(): tun_can_build_skb() needs a TAP and a non-blocking
 * write), ARP off. The frame is addressed to the device's own MAC, its
 * packet to 10.0.1.3 on the device's own subnet: the stack forwards it
 * (ip_forward=1, send_redirects=0) back out of the same device, where
 * read() takes it and consumes the skb.
 */
static void tun_echo(const char *name, int size, long n, int runs)
{
	unsigned char frame[2048], back[2048], mac[6];
	int fd = tun_open("be0", IFF_TAP | IFF_NO_PI, 1);
	int r, len = size + 14;
	long i;

	sh("echo 0 > /proc/sys/net/ipv4/conf/%s/send_redirects", "be0");
	sh("ip link set %s arp off && ip addr add 10.0.1.1/24 dev %s && ip link set %s up", "be0");
	get_mac("be0", mac);
	memcpy(frame, mac, 6);
	memcpy(frame + 6, "\x02\x00\x00\x00\x00\x02", 6);
	frame[12] = 0x08; frame[13] = 0x00;
	ipv4_udp(frame + 14, size, ip4(10, 0, 1, 2), ip4(10, 0, 1, 3));
	/* Drain what the stack sent on link up (none expected with ARP off). */
	while (read(fd, back, sizeof(back)) > 0)
		;
	quiesce();
	for (r = -1; r < runs; r++) {
		long cnt = n;
		uint64_t s0 = slab_heads(), t0 = window_start(), t1;

		for (i = 0; i < cnt; i++) {
			if (write(fd, frame, len) != len)
				die("write");
			if (read(fd, back, sizeof(back)) != len)
				die("read back packet %ld", i);
		}
		t1 = window_end();
		if (r >= 0)
			report(name, r, cnt, t1 - t0, slab_heads() - s0);
	}
	if (back[14 + 8] != 63) {
		errno = 0;
		die("the packet read back was not forwarded (ttl %d)", back[14 + 8]);
	}
	close(fd);
}


/*
 * tun-udp-local: IFF_TUN|IFF_NO_PI, blocking fd, as tun-write (the slab
 * path of tun_get_user(), tun_alloc_skb()), but each packet goes to a
 * local address: 10.0.8.2:4000 -> 10.0.8.1:5000, the device's own
 * address, where a UDP socket of this program bound to it recv()s it
 * before the next write(). The receive (tun_rx_batched(), BHs disabled)
 * queues the skb to the socket; recv() frees it in process context with
 * BHs enabled, on this CPU: skb_consume_udp(), skb_attempt_defer_free(),
 * which for a head of this CPU is kfree_skb_napi_cache() (a BH section
 * of its own, the head to the NAPI cache, on every 7.3 kernel). No UDP
 * checksum (0). Instructions per packet: write() + recv().
 */
static void tun_udp_local(const char *name, int size, long n, int runs)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(5000) };
	unsigned char pkt[2048], buf[2048];
	int fd = tun_open("bu0", IFF_TUN | IFF_NO_PI, 0);
	int s, r, plen = size - 28;
	long i;

	sh("ip addr add 10.0.8.1/24 dev %s && ip link set %s up", "bu0");
	sa.sin_addr.s_addr = ip4(10, 0, 8, 1);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)))
		die("UDP socket on 10.0.8.1:5000");
	ipv4_udp(pkt, size, ip4(10, 0, 8, 2), ip4(10, 0, 8, 1));
	quiesce();
	for (r = -1; r < runs; r++) {
		long cnt = n;
		uint64_t s0 = slab_heads(), t0 = window_start(), t1;

		for (i = 0; i < cnt; i++) {
			if (write(fd, pkt, size) != size)
				die("write");
			if (recv(s, buf, sizeof(buf), MSG_DONTWAIT) != plen)
				die("recv packet %ld of run %d", i, r);
		}
		t1 = window_end();
		if (r >= 0)
			report(name, r, cnt, t1 - t0, slab_heads() - s0);
	}
	if (memcmp(buf, pkt + 28, plen)) {
		errno = 0;
		die("the payload received is not the one written");
	}
	close(s);
	close(fd);
}


/* ------------------------------------------------------------------ */
/*
 * Frees without tun: what the net-core series changes for every other
 * user of the skb heap (docs/bench.md, "Frees without tun").
 */

static char *slurp(const char *path, char *buf, size_t sz);

/* The Udp NoPorts counter of /proc/net/snmp */
static uint64_t udp_noports(void)
{
	char buf[8192], *hdr, *val, *h, *v, *sh_, *sv;
	int i, col = -1;

	slurp("/proc/net/snmp", buf, sizeof(buf));
	hdr = strstr(buf, "\nUdp: ");
	val = hdr ? strstr(hdr + 1, "\nUdp: ") : NULL;
	if (!hdr || !val)
		die("no Udp lines in /proc/net/snmp");
	*val = 0;	/* the header line ends here */
	h = strtok_r(hdr + 6, " \n", &sh_);
	for (i = 0; h; i++, h = strtok_r(NULL, " \n", &sh_))
		if (!strcmp(h, "NoPorts"))
			col = i;
	v = strtok_r(val + 6, " \n", &sv);
	for (i = 0; v && i < col; i++)
		v = strtok_r(NULL, " \n", &sv);
	if (col < 0 || !v)
		die("no Udp NoPorts in /proc/net/snmp");
	return strtoull(v, NULL, 10);
}

/*
 * Datagrams of @len bytes sent on @s (to @to, or to its peer when @to is
 * NULL), each recv()d on @rs (MSG_DONTWAIT: one not queued by then fails
 * the run) before the next is sent; the last payload compared.
 * Instructions per datagram: the send and the recv().
 */
static void dgram_pingpong(const char *name, int s, int rs,
			   const struct sockaddr *to, socklen_t tolen,
			   int len, long n, int runs)
{
	unsigned char pkt[2048], buf[2048];
	long i;
	int r;

	for (i = 0; i < len; i++)
		pkt[i] = i * 7 + 1;
	quiesce();
	for (r = -1; r < runs; r++) {
		uint64_t s0 = slab_heads(), t0 = window_start(), t1;

		for (i = 0; i < n; i++) {
			if (sendto(s, pkt, len, 0, to, tolen) != len)
				die("send");
			if (recv(rs, buf, sizeof(buf), MSG_DONTWAIT) != len)
				die("recv datagram %ld of run %d", i, r);
		}
		t1 = window_end();
		if (r >= 0)
			report(name, r, n, t1 - t0, slab_heads() - s0);
	}
	if (memcmp(buf, pkt, len)) {
		errno = 0;
		die("the datagram received is not the one sent");
	}
}

/*
 * udp-lo: UDP datagrams of SIZE bytes (IPv4 and UDP headers included) to
 * 127.0.0.1:5100 from an unbound socket of this program, a second one
 * bound there recv()ing each before the next sendto(). sendto() takes
 * the head in process context (__alloc_skb(), from the NAPI cache when
 * it holds one), loopback_xmit() queues it to the backlog, the softirq
 * run at the end of the transmit delivers it to the socket and recv()
 * frees it in process context, BHs enabled: skb_consume_udp(), as in
 * tun-udp-local. No tun on the path.
 */
static void udp_lo(const char *name, int size, long n, int runs)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(5100) };
	int s, rs;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	rs = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || rs < 0 || bind(rs, (struct sockaddr *)&sa, sizeof(sa)))
		die("UDP sockets on 127.0.0.1:5100");
	dgram_pingpong(name, s, rs, (struct sockaddr *)&sa, sizeof(sa),
		       size - 28, n, runs);
	close(rs);
	close(s);
}

/*
 * udp-lo-drop: udp-lo's datagrams to 127.0.0.1:5101, where no socket
 * listens: __udp4_lib_rcv() frees each in the softirq, BHs disabled, on
 * this CPU (kfree_skb_reason(), NO_SOCKET), the free net-core's "cache
 * the heads of local skbs freed with BHs disabled" changes for every
 * protocol's drops. No ICMP port unreachable (icmp_msgs_per_sec and
 * icmp_msgs_burst 0: none is sent, the sender is not disturbed); every
 * datagram is checked dropped (Udp NoPorts).
 */
static void udp_lo_drop(const char *name, int size, long n, int runs)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(5101) };
	unsigned char pkt[2048] = { 0 };
	int s, r, plen = size - 28;
	long i;

	sh("echo 0 > /proc/sys/net/ipv4/icmp_msgs_per_sec%.0s", "");
	sh("echo 0 > /proc/sys/net/ipv4/icmp_msgs_burst%.0s", "");
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		die("UDP socket");
	quiesce();
	for (r = -1; r < runs; r++) {
		uint64_t s0 = slab_heads(), d0 = udp_noports(), t0 = window_start(), t1;

		for (i = 0; i < n; i++)
			if (sendto(s, pkt, plen, 0, (struct sockaddr *)&sa,
				   sizeof(sa)) != plen)
				die("sendto");
		t1 = window_end();
		if (udp_noports() - d0 != (uint64_t)n) {
			errno = 0;
			die("%llu of %ld datagrams dropped for no port",
			    (unsigned long long)(udp_noports() - d0), n);
		}
		if (r >= 0)
			report(name, r, n, t1 - t0, slab_heads() - s0);
	}
	close(s);
}

/*
 * unix-dgram: datagrams of SIZE bytes over an AF_UNIX socketpair, each
 * recv()d before the next send(): the head taken in process context
 * (sock_alloc_send_pskb()), freed by recv() in process context, BHs
 * enabled (consume_skb()): no softirq and no device, the free that
 * "cache the heads of local skbs freed with BHs disabled" tests and
 * leaves to the slab on both kernels. What it adds to such a free.
 */
static void unix_dgram(const char *name, int size, long n, int runs)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		die("socketpair");
	dgram_pingpong(name, sv[0], sv[1], NULL, 0, size, n, runs);
	close(sv[0]);
	close(sv[1]);
}

/* ------------------------------------------------------------------ */
/*
 * Cross-CPU workloads (tun-echo-xcpu, vhost-batch-xcpu, vhost-rx-xcpu,
 * vhost-forward-xcpu): booted with 2 vCPUs, the packets' heads
 * allocated on one CPU and freed on the other, threads pinned with
 * sched_setaffinity(). Under qemu -icount
 * with TCG's round-robin of the vCPUs (one host thread, one instruction
 * counter for both), a guest nanosecond is still one instruction, of
 * either vCPU: the CLOCK_MONOTONIC delta of a run is the instructions
 * both vCPUs executed in it. A halted vCPU executes none (both halted,
 * sleep=off would jump to the next timer: no run waits on a timer),
 * and a spinning one burns whole round-robin slices: nothing here spins.
 *
 * Per run, after the BENCH line, an XCPU line with the per-CPU deltas
 * (CPU0/CPU1) of what shows where the heads went:
 *   XCPU <workload> run=<i> wcpu=<a>/<b> rcpu=<a>/<b> alloc=<c0>/<c1>
 *        free=<c0>/<c1> netrx=<c0>/<c1> cal=<c0>/<c1> drop=<c0>/<c1>
 *        idle=<c0>/<c1>
 * wcpu/rcpu: the CPU the writer (the vhost driver) and the reader (the
 * vhost worker) were on at the start and at the end of the run; alloc,
 * free: skbuff_head_cache slab allocations and frees per CPU
 * (SLUB_STATS' C0=/C1= breakdowns, fast + slow path); netrx: NET_RX
 * softirqs (/proc/softirqs); cal: function-call IPIs (/proc/interrupts
 * CAL: skb_attempt_defer_free()'s kick of the allocating CPU, RPS's
 * IPI, and wake-ups); drop: backlog drops (/proc/net/softnet_stat);
 * idle: idle USER_HZ ticks (/proc/stat, coarse). All read outside the
 * timed loop.
 */
struct cpustat {
	uint64_t alloc[2], free[2], netrx[2], cal[2], drop[2], idle[2];
};

static void pin(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(tid, sizeof(set), &set))
		die("sched_setaffinity(%d, CPU %d)", (int)tid, cpu);
}

static void need_two_cpus(void)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		errno = 0;
		die("a cross-CPU workload needs 2 online CPUs (qemu -smp 2)");
	}
}

static char *slurp(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t got, len = 0;

	if (fd < 0)
		die("open %s", path);
	while (len < (ssize_t)sz - 1 && (got = read(fd, buf + len, sz - 1 - len)) > 0)
		len += got;
	close(fd);
	buf[len] = 0;
	return buf;
}

/* The C0= and C1= counts of a SLUB_STATS file ("total C0=n C1=m") */
static void slub_percpu(const char *stat, uint64_t *v)
{
	char path[96], buf[256], *p;
	int c;

	snprintf(path, sizeof(path), "/sys/kernel/slab/skbuff_head_cache/%s", stat);
	if (access(path, R_OK))
		return;
	slurp(path, buf, sizeof(buf));
	for (c = 0; c < 2; c++) {
		char key[8];

		snprintf(key, sizeof(key), " C%d=", c);
		p = strstr(buf, key);
		if (p)
			v[c] += strtoull(p + strlen(key), NULL, 10);
	}
}

/* The first two numbers after "@key" at the start of a line of @buf (blanks before it skipped) */
static void two_after(const char *buf, const char *key, uint64_t *v)
{
	const char *p = buf;
	char *e;

	while (p) {
		p += strspn(p, " ");
		if (!strncmp(p, key, strlen(key)))
			break;
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	}
	if (!p)
		return;
	p += strlen(key);
	v[0] = strtoull(p, &e, 10);
	v[1] = strtoull(e, NULL, 10);
}

static void cpustat_read(struct cpustat *s)
{
	static char buf[16384];
	char *line;
	int c;

	memset(s, 0, sizeof(*s));
	slub_percpu("alloc_fastpath", s->alloc);
	slub_percpu("alloc_slowpath", s->alloc);
	slub_percpu("free_fastpath", s->free);
	slub_percpu("free_slowpath", s->free);
	two_after(slurp("/proc/softirqs", buf, sizeof(buf)), "NET_RX:", s->netrx);
	two_after(slurp("/proc/interrupts", buf, sizeof(buf)), "CAL:", s->cal);
	slurp("/proc/stat", buf, sizeof(buf));
	for (c = 0; c < 2; c++) {
		char key[8];
		unsigned long long u, n, sy, id;

		snprintf(key, sizeof(key), "\ncpu%d ", c);
		line = strstr(buf, key);
		if (line && sscanf(line + strlen(key), "%llu %llu %llu %llu", &u, &n, &sy, &id) == 4)
			s->idle[c] = id;
	}
	/* softnet_stat: a line per online CPU, hex; the second column drops */
	slurp("/proc/net/softnet_stat", buf, sizeof(buf));
	for (c = 0, line = buf; c < 2 && line && *line; c++) {
		unsigned int processed, dropped;

		if (sscanf(line, "%x %x", &processed, &dropped) == 2)
			s->drop[c] = dropped;
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
}

static void xcpu_report(const char *name, int run, const int *wcpu, const int *rcpu,
			const struct cpustat *a, const struct cpustat *b)
{
#define D(f) (unsigned long long)(b->f[0] - a->f[0]), (unsigned long long)(b->f[1] - a->f[1])
	if (nresults < 64)
		snprintf(results[nresults++], sizeof(results[0]),
			 "XCPU %s run=%d wcpu=%d/%d rcpu=%d/%d alloc=%llu/%llu free=%llu/%llu "
			 "netrx=%llu/%llu cal=%llu/%llu drop=%llu/%llu idle=%llu/%llu\n",
			 name, run, wcpu[0], wcpu[1], rcpu[0], rcpu[1], D(alloc), D(free),
			 D(netrx), D(cal), D(drop), D(idle));
#undef D
}

/*
 * tun-echo-xcpu: tun-echo's device, frame and forwarding (device bc0,
 * 10.0.6.0/24), with the writer pinned on CPU 0 and a reader thread
 * pinned on CPU 1: the writer's write() builds the skb on CPU 0 and the
 * stack forwards it there back out of the device, into tun's ring; the
 * reader's read() consumes it on CPU 1 (the base: consume_skb(), the
 * head to the slab of CPU 1; the patched kernel: consume_skb_bh(),
 * whose napi_consume_skb() sends a head of another CPU home with
 * skb_attempt_defer_free()). In windows of XCPU_WINDOW packets: the
 * writer writes a window, then sleeps on an eventfd until the reader
 * has read it all; the reader sleeps in poll() when the ring is empty.
 * Nobody spins: a spinning vCPU would burn its round-robin slice.
 */
#define XCPU_WINDOW 64

struct echo_reader {
	int fd, done;		/* the TAP; eventfd: a window read */
	int len, runs;
	long n;
	int cpu[2];		/* the reader's CPU at a run's start and end */
	unsigned char ttl;
};

static void *echo_reader(void *arg)
{
	struct echo_reader *e = arg;
	unsigned char back[2048];
	struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
	uint64_t one = 1;
	int r;

	pin(0, 1);
	for (r = -1; r < e->runs; r++) {
		long done = 0;

		while (done < e->n) {
			long k = e->n - done < XCPU_WINDOW ? e->n - done : XCPU_WINDOW, j;

			for (j = 0; j < k; j++) {
				ssize_t got;

				while ((got = read(e->fd, back, sizeof(back))) < 0 && errno == EAGAIN)
					if (poll(&pfd, 1, -1) < 0)
						die("poll");
				if (got != e->len)
					die("read back packet %ld of run %d", done + j, r);
				if (done + j == 0)
					e->cpu[0] = sched_getcpu();
			}
			done += k;
			if (done == e->n) {
				e->cpu[1] = sched_getcpu();
				e->ttl = back[14 + 8];
			}
			if (write(e->done, &one, 8) != 8)
				die("eventfd write");
		}
	}
	return NULL;
}

static void tun_echo_xcpu(const char *name, int size, long n, int runs)
{
	unsigned char frame[2048], back[2048], mac[6];
	int fd = tun_open("bc0", IFF_TAP | IFF_NO_PI, 1);
	int r, len = size + 14, wcpu[2];
	struct echo_reader e = { .fd = fd, .len = len, .runs = runs, .n = n };
	struct cpustat c0, c1;
	pthread_t th;
	uint64_t v;
	long i;

	need_two_cpus();
	pin(0, 0);
	sh("echo 0 > /proc/sys/net/ipv4/conf/%s/send_redirects", "bc0");
	sh("ip link set %s arp off && ip addr add 10.0.6.1/24 dev %s && ip link set %s up", "bc0");
	get_mac("bc0", mac);
	memcpy(frame, mac, 6);
	memcpy(frame + 6, "\x02\x00\x00\x00\x00\x02", 6);
	frame[12] = 0x08; frame[13] = 0x00;
	ipv4_udp(frame + 14, size, ip4(10, 0, 6, 2), ip4(10, 0, 6, 3));
	while (read(fd, back, sizeof(back)) > 0)
		;
	e.done = eventfd(0, 0);
	if (e.done < 0)
		die("eventfd");
	if ((errno = pthread_create(&th, NULL, echo_reader, &e)))
		die("pthread_create");
	quiesce();
	for (r = -1; r < runs; r++) {
		long cnt = n, done = 0;
		uint64_t s0, t0, t1;

		cpustat_read(&c0);
		wcpu[0] = sched_getcpu();
		s0 = slab_heads();
		t0 = window_start();
		while (done < cnt) {
			long k = cnt - done < XCPU_WINDOW ? cnt - done : XCPU_WINDOW;

			for (i = 0; i < k; i++)
				if (write(fd, frame, len) != len)
					die("write");
			if (read(e.done, &v, 8) != 8)
				die("eventfd read");
			done += k;
		}
		t1 = window_end();
		if (r >= 0) {
			report(name, r, cnt, t1 - t0, slab_heads() - s0);
			wcpu[1] = sched_getcpu();
			cpustat_read(&c1);
			xcpu_report(name, r, wcpu, e.cpu, &c0, &c1);
		}
	}
	pthread_join(th, NULL);
	if (e.ttl != 63) {
		errno = 0;
		die("the packet read back was not forwarded (ttl %d)", e.ttl);
	}
	close(fd);
}

/* ------------------------------------------------------------------ */
/*
 * vhost-batch: a minimal vhost-net driver (cf. tools/virtio/
 * vhost_net_test.c). The TX virtqueue (index 1) lives in this process's
 * memory, which the memory table maps 1:1; the backend is a TAP with
 * IFF_TAP|IFF_NO_PI|IFF_VNET_HDR, so vhost_net builds xdp_buffs for these
 * small packets and hands them to tun_sendmsg() as TUN_MSG_PTR batches.
 * The frames are dropped as in tun-write (to the TAP's own MAC, ARP off,
 * to DROP_DST). Each round fills up to QSZ/2 descriptors, kicks,
 * and waits on the call eventfd until vhost has used them all.
 */
#define QSZ 256

struct vq {
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	uint16_t avail_idx, last_used;
};

/*
 * The vhost worker of this process, a thread of it since 6.4 (a
 * vhost_task, "vhost-<owner pid>"; 7.3's kthread mode is off by
 * default): its tid, 0 when there is none.
 */
static pid_t vhost_worker_tid(void)
{
	char want[32], path[300], comm[32];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");
	pid_t tid = 0;

	if (!dir)
		die("opendir /proc/self/task");
	snprintf(want, sizeof(want), "vhost-%d\n", (int)getpid());
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			snprintf(path, sizeof(path), "/proc/self/task/%s/comm", d->d_name);
			if (!strcmp(slurp(path, comm, sizeof(comm)), want))
				tid = atoi(d->d_name);
		}
	closedir(dir);
	return tid;
}

/* The CPU thread @tid of this process last ran on (stat field 39) */
static int task_cpu(pid_t tid)
{
	char path[64], buf[1024], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	p = strrchr(slurp(path, buf, sizeof(buf)), ')');
	for (i = 2; p && i < 39; i++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

/*
 * A vhost-net device with one virtqueue (cf. tools/virtio/
 * vhost_net_test.c): QSZ descriptors (split ring) and QSZ buffers of
 * 2048 bytes in this process's memory, which the memory table maps 1:1;
 * features VIRTIO_F_VERSION_1 and VIRTIO_NET_F_MRG_RXBUF, so the header
 * is the 12-byte virtio_net_hdr_mrg_rxbuf, which the backend (a TAP,
 * tun's or a macvtap's, with that header size) reads and writes itself.
 */
struct vhost {
	int fd, kick, call;
	struct vq q;
	void *ring;
	size_t ringsz;
	unsigned char *bufs;
	pid_t wtid;		/* the vhost worker, with @xcpu */
};

/*
 * Open /dev/vhost-net, map the ring and the buffers, set the owner, the
 * features and the memory table. @xcpu: this thread pinned on CPU 0,
 * the vhost worker on CPU 1.
 */
static void vhost_open(struct vhost *v, int xcpu)
{
	struct vhost_memory *mem;
	uint64_t features;

	memset(v, 0, sizeof(*v));
	v->fd = open("/dev/vhost-net", O_RDWR);
	v->kick = eventfd(0, 0);
	v->call = eventfd(0, 0);
	if (v->fd < 0 || v->kick < 0 || v->call < 0)
		die("open /dev/vhost-net or eventfd");
	v->ringsz = vring_size(QSZ, 4096);
	v->ring = mmap(NULL, v->ringsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	v->bufs = mmap(NULL, (size_t)QSZ * 2048, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (v->ring == MAP_FAILED || v->bufs == MAP_FAILED)
		die("mmap");
	memset(v->ring, 0, v->ringsz);
	v->q.desc = v->ring;
	v->q.avail = (void *)((char *)v->ring + QSZ * 16);
	v->q.used = (void *)(((uintptr_t)&v->q.avail->ring[QSZ] + sizeof(uint16_t) + 4095) & ~4095ul);

	if (xcpu)
		pin(0, 0);
	if (ioctl(v->fd, VHOST_SET_OWNER, NULL) < 0)
		die("VHOST_SET_OWNER");
	if (xcpu) {
		v->wtid = vhost_worker_tid();
		if (!v->wtid) {
			errno = ESRCH;
			die("no vhost-%d worker thread", (int)getpid());
		}
		pin(v->wtid, 1);
	}
	if (ioctl(v->fd, VHOST_GET_FEATURES, &features) < 0)
		die("VHOST_GET_FEATURES");
	features &= (1ull << VIRTIO_F_VERSION_1) | (1ull << VIRTIO_NET_F_MRG_RXBUF);
	if (ioctl(v->fd, VHOST_SET_FEATURES, &features) < 0)
		die("VHOST_SET_FEATURES");
	mem = calloc(1, sizeof(*mem) + 2 * sizeof(mem->regions[0]));
	if (!mem)
		die("calloc");
	mem->nregions = 2;
	mem->regions[0] = (struct vhost_memory_region){ (uintptr_t)v->ring, v->ringsz, (uintptr_t)v->ring, 0 };
	mem->regions[1] = (struct vhost_memory_region){ (uintptr_t)v->bufs, (size_t)QSZ * 2048, (uintptr_t)v->bufs, 0 };
	if (ioctl(v->fd, VHOST_SET_MEM_TABLE, mem) < 0)
		die("VHOST_SET_MEM_TABLE");
	free(mem);
}

/* Set up virtqueue @idx (0: RX, 1: TX; the other one is left unused) on backend @fd */
static void vhost_start(struct vhost *v, unsigned int idx, int fd)
{
	struct vhost_vring_state st;
	struct vhost_vring_file file;
	struct vhost_vring_addr addr;

	st = (struct vhost_vring_state){ idx, QSZ };
	if (ioctl(v->fd, VHOST_SET_VRING_NUM, &st) < 0)
		die("VHOST_SET_VRING_NUM");
	st = (struct vhost_vring_state){ idx, 0 };
	if (ioctl(v->fd, VHOST_SET_VRING_BASE, &st) < 0)
		die("VHOST_SET_VRING_BASE");
	addr = (struct vhost_vring_addr){ .index = idx,
		.desc_user_addr = (uintptr_t)v->q.desc,
		.avail_user_addr = (uintptr_t)v->q.avail,
		.used_user_addr = (uintptr_t)v->q.used };
	if (ioctl(v->fd, VHOST_SET_VRING_ADDR, &addr) < 0)
		die("VHOST_SET_VRING_ADDR");
	file = (struct vhost_vring_file){ idx, v->kick };
	if (ioctl(v->fd, VHOST_SET_VRING_KICK, &file) < 0)
		die("VHOST_SET_VRING_KICK");
	file = (struct vhost_vring_file){ idx, v->call };
	if (ioctl(v->fd, VHOST_SET_VRING_CALL, &file) < 0)
		die("VHOST_SET_VRING_CALL");
	file = (struct vhost_vring_file){ idx, fd };
	if (ioctl(v->fd, VHOST_NET_SET_BACKEND, &file) < 0)
		die("VHOST_NET_SET_BACKEND");
}

/*
 * Drive the vhost-net TX queue with backend @fd (a TAP, tun's or a
 * macvtap's, with a 12-byte virtio-net header), frames to @mac, packets
 * from @src to @dst (DROP_DST, but for vhost-forward). Each round fills
 * up to QSZ/2 descriptors, kicks, and waits on the call eventfd until
 * vhost has used them all. @xcpu: the driver (this thread) pinned on
 * CPU 0, the vhost worker on CPU 1, and an XCPU line per run.
 */
static void vhost_run(const char *name, int size, long n, int runs, int fd,
		      const unsigned char *mac, uint32_t src, uint32_t dst, int xcpu)
{
	int hdrlen = sizeof(struct virtio_net_hdr_mrg_rxbuf);
	int len = hdrlen + 14 + size, batch = QSZ / 2, r;
	struct cpustat c0, c1;
	int wcpu[2], rcpu[2];
	struct vhost v;
	struct vq *q = &v.q;
	long i;

	vhost_open(&v, xcpu);
	for (i = 0; i < QSZ; i++) {
		unsigned char *b = v.bufs + i * 2048;

		memset(b, 0, hdrlen);	/* virtio_net_hdr: no csum, no gso */
		((struct virtio_net_hdr_mrg_rxbuf *)b)->num_buffers = 1;
		memcpy(b + hdrlen, mac, 6);
		memcpy(b + hdrlen + 6, "\x02\x00\x00\x00\x00\x03", 6);
		b[hdrlen + 12] = 0x08; b[hdrlen + 13] = 0x00;
		ipv4_udp(b + hdrlen + 14, size, src, dst);
		q->desc[i].addr = (uintptr_t)b;
		q->desc[i].len = len;
		q->desc[i].flags = 0;
	}
	vhost_start(&v, 1, fd);

	quiesce();
	for (r = -1; r < runs; r++) {
		long cnt = n, done = 0;
		uint64_t s0, t0, t1, val;

		if (xcpu) {
			cpustat_read(&c0);
			wcpu[0] = sched_getcpu();
			rcpu[0] = task_cpu(v.wtid);
		}
		s0 = slab_heads();
		t0 = window_start();
		while (done < cnt) {
			int k = cnt - done < batch ? cnt - done : batch, j;

			for (j = 0; j < k; j++) {
				uint16_t head = (q->avail_idx + j) % QSZ;

				q->avail->ring[(q->avail_idx + j) % QSZ] = head;
			}
			__atomic_thread_fence(__ATOMIC_RELEASE);
			q->avail_idx += k;
			q->avail->idx = q->avail_idx;
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			val = 1;
			if (write(v.kick, &val, 8) != 8)
				die("kick");
			while (*(volatile uint16_t *)&q->used->idx != q->avail_idx)
				if (read(v.call, &val, 8) != 8)
					die("call");
			done += k;
		}
		t1 = window_end();
		if (r >= 0)
			report(name, r, cnt, t1 - t0, slab_heads() - s0);
		if (r >= 0 && xcpu) {
			wcpu[1] = sched_getcpu();
			rcpu[1] = task_cpu(v.wtid);
			cpustat_read(&c1);
			xcpu_report(name, r, wcpu, rcpu, &c0, &c1);
		}
	}
}

/* A TAP of tun's as vhost-net's backend: the mergeable-buffers header */
static int vhost_tap_open(const char *ifname)
{
	int fd = tun_open(ifname, IFF_TAP | IFF_NO_PI | IFF_VNET_HDR, 1);
	int hdrlen = sizeof(struct virtio_net_hdr_mrg_rxbuf);

	if (ioctl(fd, TUNSETVNETHDRSZ, &hdrlen) < 0)
		die("TUNSETVNETHDRSZ");
	return fd;
}

/* vhost-batch: the backend a TAP of tun's */
static void vhost_batch(const char *name, int size, long n, int runs)
{
	int fd = vhost_tap_open("bv0");
	unsigned char mac[6];

	sh("ip link set %s arp off && ip addr add 10.0.2.1/24 dev %s && ip link set %s up", "bv0");
	get_mac("bv0", mac);
	vhost_run(name, size, n, runs, fd, mac, ip4(10, 0, 2, 2), DROP_DST, 0);
}

/*
 * vhost-batch-xcpu: vhost-batch (device bw0, 10.0.7.0/24) with the
 * driver pinned on CPU 0, the vhost worker on CPU 1 and RPS on the
 * TAP's receive queue steering every packet to CPU 0 (rps_cpus 1): the
 * worker builds the skbs on CPU 1 (tun_sendmsg()) and hands them to
 * CPU 0's backlog, where the stack drops them (the martian destination
 * of vhost-batch) and frees the heads.
 */
static void vhost_batch_xcpu(const char *name, int size, long n, int runs)
{
	int fd = vhost_tap_open("bw0");
	unsigned char mac[6];

	need_two_cpus();
	sh("ip link set %s arp off && ip addr add 10.0.7.1/24 dev %s && ip link set %s up", "bw0");
	sh("echo 1 > /sys/class/net/%s/queues/rx-0/rps_cpus", "bw0");
	get_mac("bw0", mac);
	vhost_run(name, size, n, runs, fd, mac, ip4(10, 0, 7, 2), DROP_DST, 1);
}

/*
 * tap-vhost-batch: the backend a macvtap (drivers/net/tap.c) on one end
 * of a veth pair, in macvlan's default mode (VEPA: what the guest sends
 * leaves through the lower device). vhost_net builds xdp_buffs and hands
 * them to tap_sendmsg() as TUN_MSG_PTR batches (the sndbuf must be
 * INT_MAX for that, tun's default, not tap's). The frames go to the
 * other end of the pair, ARP off, where the stack drops them as in
 * tun-write.
 */
static void tap_vhost_batch(const char *name, int size, long n, int runs)
{
	int hdrlen = sizeof(struct virtio_net_hdr_mrg_rxbuf), sndbuf = INT_MAX;
	unsigned char mac[6];
	char path[32];
	int fd;

	veth_pair("tv0", "tv1");
	sh("ip link set %s arp off && ip addr add 10.0.4.1/24 dev %s && ip link set %s up", "tv1");
	sh("ip link set %s arp off && ip link set %s up", "tv0");
	macvtap("mvt0", "tv0");
	sh("ip link set %s arp off && ip link set %s up", "mvt0");
	snprintf(path, sizeof(path), "/dev/tap%u", if_nametoindex("mvt0"));
	fd = open(path, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		die("open %s", path);
	if (ioctl(fd, TUNSETVNETHDRSZ, &hdrlen) < 0)
		die("TUNSETVNETHDRSZ");
	if (ioctl(fd, TUNSETSNDBUF, &sndbuf) < 0)
		die("TUNSETSNDBUF");
	get_mac("tv1", mac);
	vhost_run(name, size, n, runs, fd, mac, ip4(10, 0, 4, 2), DROP_DST, 0);
	nl_dellink("tv0");	/* for the next workload */
}

/*
 * veth-xdp: vhost-net batches into a TAP of tun's whose XDP program
 * redirects every frame to one end of a veth pair; the other end, with
 * an XDP_PASS program (which gives it its NAPI), takes the frames in
 * NAPI and builds their skbs in bulk (veth_xdp_rcv_bulk_skb()). The
 * stack drops them as in tun-write.
 */
static void veth_xdp(const char *name, int size, long n, int runs)
{
	int fd = vhost_tap_open("bx0");
	unsigned char mac[6];

	veth_pair("vx0", "vx1");
	sh("ip link set %s arp off && ip addr add 10.0.5.1/24 dev %s && ip link set %s up", "vx1");
	sh("ip link set %s arp off && ip link set %s up", "vx0");
	xdp_attach("vx1", 0);
	sh("ip link set %s arp off && ip link set %s up", "bx0");
	xdp_attach("bx0", if_nametoindex("vx0"));
	get_mac("vx1", mac);
	vhost_run(name, size, n, runs, fd, mac, ip4(10, 0, 5, 2), DROP_DST, 0);
	nl_dellink("vx0");	/* for the next workload */
}

/* ------------------------------------------------------------------ */
/*
 * vhost-rx: vhost-net's receive path (handle_rx()). The RX virtqueue
 * (index 0) of a vhost-net device in this process's memory, QSZ
 * buffers of 2048 bytes posted (device-writable, one per packet: the
 * mergeable header's num_buffers is 1), backend a TAP of tun's as in
 * vhost-batch (@ifname, address 10.0.@net.1/24, ARP off: the frames go
 * to the TAP's own MAC). A UDP socket of this program (10.0.@net.1:4000,
 * connected to 10.0.@net.2:5000, no UDP checksum) sends SIZE-byte
 * packets there: ip_output(), the TAP's transmit (tun_net_xmit()) puts
 * each skb in tun's ring and wakes the vhost worker, whose
 * handle_rx() takes the skbs from the ring in batches and has
 * tun_recvmsg() copy each into a posted buffer and free it
 * (tun_put_user(), then consume_skb() on the base, consume_skb_bh() on
 * the patched kernel): the free is in the worker, in process context.
 * In windows of RX_WINDOW packets: send a window (one sendmmsg(): on
 * one CPU the worker, woken by the first packet, runs when the sender
 * blocks, not after each packet's send()), wait on the call
 * eventfd until vhost has used a buffer per packet, post those buffers
 * again (kicking only if vhost asked to be notified: no
 * VRING_USED_F_NO_NOTIFY). Each used buffer's length is checked.
 * @xcpu (vhost-rx-xcpu): the sender pinned on CPU 0, the worker on
 * CPU 1, so the heads the sender's CPU allocated are freed on the other.
 */
#define RX_WINDOW 64

static void vhost_rx(const char *name, int size, long n, int runs,
		     const char *ifname, int net, int xcpu)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int hdrlen = sizeof(struct virtio_net_hdr_mrg_rxbuf);
	int fd = vhost_tap_open(ifname), s, one = 1, r;
	int len = hdrlen + 14 + size, plen = size - 28;
	struct mmsghdr msgs[RX_WINDOW];
	unsigned char payload[2048];
	struct pollfd pfd;
	struct iovec iov;
	char cmd[160];
	struct cpustat c0, c1;
	int wcpu[2], rcpu[2];
	struct vhost v;
	struct vq *q = &v.q;
	long i;

	if (xcpu)
		need_two_cpus();
	snprintf(cmd, sizeof(cmd),
		 "ip link set %%s arp off && ip addr add 10.0.%d.1/24 dev %%s && ip link set %%s up", net);
	sh(cmd, ifname);
	vhost_open(&v, xcpu);
	for (i = 0; i < QSZ; i++) {
		q->desc[i].addr = (uintptr_t)(v.bufs + i * 2048);
		q->desc[i].len = 2048;
		q->desc[i].flags = VRING_DESC_F_WRITE;
		q->avail->ring[i] = i;
	}
	vhost_start(&v, 0, fd);

	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_NO_CHECK, &one, sizeof(one)))
		die("UDP socket");
	sa.sin_port = htons(4000);
	sa.sin_addr.s_addr = ip4(10, 0, net, 1);
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)))
		die("bind 10.0.%d.1:4000", net);
	sa.sin_port = htons(5000);
	sa.sin_addr.s_addr = ip4(10, 0, net, 2);
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect 10.0.%d.2:5000", net);
	for (i = 0; i < plen; i++)
		payload[i] = i;
	iov = (struct iovec){ .iov_base = payload, .iov_len = plen };
	for (i = 0; i < RX_WINDOW; i++)
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1 } };
	pfd = (struct pollfd){ .fd = v.call, .events = POLLIN };

	/* Post every buffer; vhost has not disabled notifications yet: kick. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	q->avail_idx = QSZ;
	q->avail->idx = q->avail_idx;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	{
		uint64_t val = 1;

		if (write(v.kick, &val, 8) != 8)
			die("kick");
	}
	quiesce();
	for (r = -1; r < runs; r++) {
		long cnt = n, done = 0;
		uint64_t s0, t0, t1, val;

		if (xcpu) {
			cpustat_read(&c0);
			wcpu[0] = sched_getcpu();
			rcpu[0] = task_cpu(v.wtid);
		}
		s0 = slab_heads();
		t0 = window_start();
		while (done < cnt) {
			int k = cnt - done < RX_WINDOW ? cnt - done : RX_WINDOW, j;
			uint16_t want = q->last_used + k;

			for (j = 0; j < k; ) {
				int sent = sendmmsg(s, msgs + j, k - j, 0);

				if (sent <= 0)
					die("sendmmsg packet %ld of run %d", done + j, r);
				j += sent;
			}
			while (*(volatile uint16_t *)&q->used->idx != want) {
				/* virtual time: 10 s of an idle guest pass at once */
				if (poll(&pfd, 1, 10000) != 1) {
					errno = ETIMEDOUT;
					die("%s: vhost used %u of %d packets sent (lost?)", name,
					    (uint16_t)(*(volatile uint16_t *)&q->used->idx - q->last_used), k);
				}
				if (read(v.call, &val, 8) != 8)
					die("call");
			}
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			for (j = 0; j < k; j++) {
				struct vring_used_elem *u = &q->used->ring[(q->last_used + j) % QSZ];

				if (u->len != (uint32_t)len) {
					errno = 0;
					die("%s: a used buffer of %u bytes, not %d", name, u->len, len);
				}
				q->avail->ring[(q->avail_idx + j) % QSZ] = u->id;
			}
			q->last_used = want;
			__atomic_thread_fence(__ATOMIC_RELEASE);
			q->avail_idx += k;
			q->avail->idx = q->avail_idx;
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (!(*(volatile uint16_t *)&q->used->flags & VRING_USED_F_NO_NOTIFY)) {
				val = 1;
				if (write(v.kick, &val, 8) != 8)
					die("kick");
			}
			done += k;
		}
		t1 = window_end();
		if (r >= 0)
			report(name, r, cnt, t1 - t0, slab_heads() - s0);
		if (r >= 0 && xcpu) {
			wcpu[1] = sched_getcpu();
			rcpu[1] = task_cpu(v.wtid);
			cpustat_read(&c1);
			xcpu_report(name, r, wcpu, rcpu, &c0, &c1);
		}
	}
	/* The last packet as the guest got it: header, frame, payload */
	{
		uint16_t id = q->used->ring[(uint16_t)(q->last_used - 1) % QSZ].id;
		unsigned char *b = v.bufs + (size_t)id * 2048;

		if (((struct virtio_net_hdr_mrg_rxbuf *)b)->num_buffers != 1 ||
		    b[hdrlen + 12] != 0x08 || b[hdrlen + 13] != 0x00 ||
		    b[hdrlen + 14 + 9] != 17 || memcmp(b + hdrlen + 14 + 28, payload, plen)) {
			errno = 0;
			die("%s: the frame vhost wrote is not the packet sent", name);
		}
	}
	close(s);
}

/* vhost-rx: sender and vhost worker on one CPU (device bq0, 10.0.9.0/24) */
static void vhost_rx_one(const char *name, int size, long n, int runs)
{
	vhost_rx(name, size, n, runs, "bq0", 9, 0);
}

/* vhost-rx-xcpu: the sender on CPU 0, the worker on CPU 1 (bs0, 10.0.10.0/24) */
static void vhost_rx_xcpu(const char *name, int size, long n, int runs)
{
	vhost_rx(name, size, n, runs, "bs0", 10, 1);
}

/* ------------------------------------------------------------------ */
/*
 * vhost-forward: vhost-batch's frames (device bf0, 10.0.11.1/24), their
 * packets to 10.0.12.2, which the stack forwards (ip_forward=1) out of
 * a dummy device (bd0, 10.0.12.1/24; IFF_NOARP, no qdisc): the TTL
 * decremented, ip_output(), and dummy_xmit() frees each skb
 * (dev_kfree_skb()) in __dev_queue_xmit()'s BH-disabled section, on the
 * CPU that forwarded it. @xcpu (vhost-forward-xcpu, bh0 10.0.13.1/24,
 * bi0 10.0.14.1/24): the driver on CPU 0, the worker on CPU 1 and RPS
 * steering the TAP's packets to CPU 0, as vhost-batch-xcpu: the worker
 * builds the skbs on CPU 1, CPU 0's backlog forwards them and the dummy
 * frees them there. The dummy is deleted at the end, for the next run.
 */
static void nl_newlink_kind(const char *name, const char *kind)
{
	struct rtattr *info;
	struct nlreq r;

	nl_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	nla_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	info = nla_put(&r, IFLA_LINKINFO, NULL, 0);
	nla_put(&r, IFLA_INFO_KIND, kind, strlen(kind));
	nla_end(&r, info);
	nl_talk(&r, kind);
}

static void vhost_forward_on(const char *name, int size, long n, int runs,
			     const char *tap, const char *dummy, int net, int xcpu)
{
	int fd = vhost_tap_open(tap);
	unsigned char mac[6];
	char cmd[256];
	uint64_t sent;
	int i;

	if (xcpu)
		need_two_cpus();
	nl_newlink_kind(dummy, "dummy");
	snprintf(cmd, sizeof(cmd), "ip link set %%s arp off && ip addr add 10.0.%d.1/24 dev %%s && ip link set %%s up", net);
	sh(cmd, tap);
	snprintf(cmd, sizeof(cmd), "ip addr add 10.0.%d.1/24 dev %%s && ip link set %%s up", net + 1);
	sh(cmd, dummy);
	if (xcpu)
		sh("echo 1 > /sys/class/net/%s/queues/rx-0/rps_cpus", tap);
	get_mac(tap, mac);
	vhost_run(name, size, n, runs, fd, mac, ip4(10, 0, net, 2), ip4(10, 0, net + 1, 2), xcpu);
	/*
	 * Every packet left through the dummy. With RPS, CPU 0's backlog
	 * may still hold the last ones when vhost has used their buffers:
	 * wait for them (idle: free under sleep=off).
	 */
	snprintf(cmd, sizeof(cmd), "/sys/class/net/%s/statistics/tx_packets", dummy);
	for (i = 0; i < 100 && read_u64(cmd) < (uint64_t)n * (runs + 1); i++)
		usleep(10000);
	sent = read_u64(cmd);
	nl_dellink(dummy);	/* for the next workload, even after a failure */
	if (sent < (uint64_t)n * (runs + 1)) {
		errno = 0;
		die("%s: %s sent %llu packets, not %ld", name, dummy,
		    (unsigned long long)sent, n * (runs + 1));
	}
}

static void vhost_forward(const char *name, int size, long n, int runs)
{
	vhost_forward_on(name, size, n, runs, "bf0", "bd0", 11, 0);
}

static void vhost_forward_xcpu(const char *name, int size, long n, int runs)
{
	vhost_forward_on(name, size, n, runs, "bh0", "bi0", 13, 1);
}

/* ------------------------------------------------------------------ */
/*
 * vpn-tcp: a TCP stream through two TUN devices (IFF_TUN|IFF_NO_PI,
 * blocking) and a userspace relay, as a VPN client's. The client end's
 * device ba0 (10.0.20.1/24, and 10.0.23.0/24 routed out of it), the
 * server end's bb0 (10.0.21.1/24, and 10.0.22.0/24). The client
 * connects from 10.0.20.1 to 10.0.23.1; a relay thread per direction
 * read()s a packet from one device and write()s it to the other with
 * its addresses rewritten, as if it came from another host:
 *   out of ba0: 10.0.20.1 -> 10.0.23.1  becomes  10.0.22.1 -> 10.0.21.1
 *   out of bb0: 10.0.21.1 -> 10.0.22.1  becomes  10.0.23.1 -> 10.0.20.1
 * The third octets' sums are the same (20 + 23 = 22 + 21), so the IPv4
 * and TCP checksums stay valid unchanged. Both ends are sockets of this
 * process in one network namespace: the rewriting is what makes each
 * end a remote host to the other (the bench kernels have no NET_NS).
 * A run streams PACKETS KiB from the client thread to the server (the
 * main thread, TCP_QUICKACK set after each recv(): no delayed ACK
 * waits on a timer inside a run); its packet count is what the relay
 * carried in the run, both ways (data and ACKs), the figure
 * instructions per relayed packet, relay included.
 */
struct vpn_relay {
	int from, to;
	unsigned char want_src, want_dst, src, dst;	/* the third octets */
	long pkts;
};

static void *vpn_relay(void *arg)
{
	struct vpn_relay *v = arg;
	unsigned char p[2048];
	ssize_t got;

	for (;;) {
		got = read(v->from, p, sizeof(p));
		if (got < 20 || (p[0] >> 4) != 4 || p[14] != v->want_src || p[18] != v->want_dst) {
			errno = got < 0 ? errno : 0;
			die("vpn-tcp: the relay read %zd bytes, not a packet of the stream", got);
		}
		p[14] = v->src;
		p[18] = v->dst;
		if (write(v->to, p, got) != got)
			die("vpn-tcp: relay write");
		__atomic_add_fetch(&v->pkts, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

struct vpn_client {
	int fd, go;
	long bytes;
	int runs;
};

static void *vpn_client(void *arg)
{
	static unsigned char chunk[65536];
	struct vpn_client *c = arg;
	uint64_t v;
	int r;

	for (r = -1; r < c->runs; r++) {
		long left = c->bytes;

		if (read(c->go, &v, 8) != 8)
			die("eventfd read");
		while (left > 0) {
			ssize_t k = send(c->fd, chunk, left < (long)sizeof(chunk) ? left : (long)sizeof(chunk), 0);

			if (k <= 0)
				die("vpn-tcp: send");
			left -= k;
		}
	}
	return NULL;
}

static void vpn_tcp(const char *name, long n, int runs)
{
	struct vpn_relay out = { .want_src = 20, .want_dst = 23, .src = 22, .dst = 21 };
	struct vpn_relay in = { .want_src = 21, .want_dst = 22, .src = 23, .dst = 20 };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct vpn_client c = { .bytes = n * 1024, .runs = runs };
	static unsigned char buf[65536];
	int ls, s, one = 1, bufsz = 128 * 1024, r;
	pthread_t th[3];
	uint64_t v = 1;

	struct sched_param sp = { .sched_priority = 1 };

	/*
	 * Every thread SCHED_FIFO, one priority: a wakeup never preempts,
	 * nor does the tick; a thread runs until it blocks, so the stream
	 * interleaves the same way in every run. No RT throttling (it
	 * would idle the CPU inside a run).
	 */
	sh("echo -1 > /proc/sys/kernel/sched_rt_runtime_us%s", "");
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler SCHED_FIFO");
	out.from = in.to = tun_open("ba0", IFF_TUN | IFF_NO_PI, 0);
	out.to = in.from = tun_open("bb0", IFF_TUN | IFF_NO_PI, 0);
	sh("ip addr add 10.0.20.1/24 dev %s && ip link set %s up && ip route add 10.0.23.0/24 dev %s", "ba0");
	sh("ip addr add 10.0.21.1/24 dev %s && ip link set %s up && ip route add 10.0.22.0/24 dev %s", "bb0");
	if ((errno = pthread_create(&th[0], NULL, vpn_relay, &out)) ||
	    (errno = pthread_create(&th[1], NULL, vpn_relay, &in)))
		die("pthread_create");

	/*
	 * Fixed buffers (no autotuning: the windows do not grow from run
	 * to run), the server's inherited from the listener.
	 */
	ls = socket(AF_INET, SOCK_STREAM, 0);
	sa.sin_port = htons(5001);
	sa.sin_addr.s_addr = ip4(10, 0, 21, 1);
	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(ls, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz)) ||
	    setsockopt(ls, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz)) ||
	    bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1))
		die("vpn-tcp: listen on 10.0.21.1:5001");
	c.fd = socket(AF_INET, SOCK_STREAM, 0);
	sa.sin_port = 0;
	sa.sin_addr.s_addr = ip4(10, 0, 20, 1);
	if (c.fd < 0 || setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz)) ||
	    setsockopt(c.fd, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz)) ||
	    bind(c.fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("vpn-tcp: client socket on 10.0.20.1");
	sa.sin_port = htons(5001);
	sa.sin_addr.s_addr = ip4(10, 0, 23, 1);
	if (connect(c.fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("vpn-tcp: connect to 10.0.23.1:5001 (relayed to 10.0.21.1)");
	s = accept(ls, NULL, NULL);
	if (s < 0)
		die("vpn-tcp: accept");
	c.go = eventfd(0, 0);
	if (c.go < 0)
		die("eventfd");
	if ((errno = pthread_create(&th[2], NULL, vpn_client, &c)))
		die("pthread_create");
	quiesce();
	for (r = -1; r < runs; r++) {
		long left = c.bytes, p0, p1;
		uint64_t s0 = slab_heads(), t0, t1;

		p0 = __atomic_load_n(&out.pkts, __ATOMIC_RELAXED) + __atomic_load_n(&in.pkts, __ATOMIC_RELAXED);
		t0 = window_start();
		if (write(c.go, &v, 8) != 8)
			die("eventfd write");
		while (left > 0) {
			ssize_t k = recv(s, buf, sizeof(buf), 0);

			if (k <= 0)
				die("vpn-tcp: recv (%ld bytes left in run %d)", left, r);
			left -= k;
			setsockopt(s, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
		}
		t1 = window_end();
		p1 = __atomic_load_n(&out.pkts, __ATOMIC_RELAXED) + __atomic_load_n(&in.pkts, __ATOMIC_RELAXED);
		if (r >= 0)
			report(name, r, p1 - p0, t1 - t0, slab_heads() - s0);
	}
	pthread_join(th[2], NULL);
	/* the relay threads block in read(): exit() ends them */
}

/* ------------------------------------------------------------------ */
/*
 * skb-head: /proc/skb_head_bench (tools/bench-guest/skbhead, patched
 * kernel only) runs the three loops in the kernel on every read and
 * prints "<name> <heads> <ns>" lines.
 */
static void skb_head(int runs)
{
	char buf[512], nm[64];
	int r;

	for (r = 0; r < runs; r++) {
		int fd = open("/proc/skb_head_bench", O_RDONLY);
		ssize_t got;
		char *line;

		if (fd < 0)
			die("open /proc/skb_head_bench");
		got = read(fd, buf, sizeof(buf) - 1);
		if (got <= 0)
			die("read /proc/skb_head_bench");
		buf[got] = 0;
		close(fd);
		for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			unsigned long long heads, ns, slab;

			if (sscanf(line, "%63s %llu %llu %llu", nm, &heads, &ns, &slab) == 4)
				report(nm, r, heads, ns, slab);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "rng-seed")) {
		rng_seed();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "skb-head")) {
		quiesce();
		skb_head(atoi(argv[2]));
		flush_results();
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: skbbench {tun-write|tun-echo|vhost-batch|tap-vhost-batch|veth-xdp|\n"
				"                 tun-udp-local|vhost-rx|vhost-forward|\n"
				"                 udp-lo|udp-lo-drop|unix-dgram|\n"
				"                 tun-echo-xcpu|vhost-batch-xcpu|vhost-rx-xcpu|\n"
				"                 vhost-forward-xcpu} SIZE PACKETS RUNS\n"
				"       skbbench vpn-tcp 0 PACKETS RUNS\n"
				"       skbbench skb-head RUNS\n"
				"       skbbench rng-seed\n");
		return 2;
	}
	char name[64];
	int size = atoi(argv[2]), runs = atoi(argv[4]);
	long n = atol(argv[3]);

	if (!strcmp(argv[1], "vpn-tcp")) {	/* SIZE: none, 0 */
		vpn_tcp("vpn-tcp", n, runs);
		flush_results();
		return 0;
	}
	if (size < 28 || size > 1500) {
		errno = EINVAL;
		die("SIZE must be 28..1500");
	}
	snprintf(name, sizeof(name), "%s-%d", argv[1], size);
	if (!strcmp(argv[1], "tun-write"))
		tun_write(name, size, n, runs);
	else if (!strcmp(argv[1], "tun-echo"))
		tun_echo(name, size, n, runs);
	else if (!strcmp(argv[1], "vhost-batch"))
		vhost_batch(name, size, n, runs);
	else if (!strcmp(argv[1], "tap-vhost-batch"))
		tap_vhost_batch(name, size, n, runs);
	else if (!strcmp(argv[1], "veth-xdp"))
		veth_xdp(name, size, n, runs);
	else if (!strcmp(argv[1], "tun-echo-xcpu"))
		tun_echo_xcpu(name, size, n, runs);
	else if (!strcmp(argv[1], "vhost-batch-xcpu"))
		vhost_batch_xcpu(name, size, n, runs);
	else if (!strcmp(argv[1], "tun-udp-local"))
		tun_udp_local(name, size, n, runs);
	else if (!strcmp(argv[1], "udp-lo"))
		udp_lo(name, size, n, runs);
	else if (!strcmp(argv[1], "udp-lo-drop"))
		udp_lo_drop(name, size, n, runs);
	else if (!strcmp(argv[1], "unix-dgram"))
		unix_dgram(name, size, n, runs);
	else if (!strcmp(argv[1], "vhost-rx"))
		vhost_rx_one(name, size, n, runs);
	else if (!strcmp(argv[1], "vhost-rx-xcpu"))
		vhost_rx_xcpu(name, size, n, runs);
	else if (!strcmp(argv[1], "vhost-forward"))
		vhost_forward(name, size, n, runs);
	else if (!strcmp(argv[1], "vhost-forward-xcpu"))
		vhost_forward_xcpu(name, size, n, runs);
	else
		return 2;
	flush_results();
	return 0;
}
