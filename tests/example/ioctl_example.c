// SPDX-License-Identifier: GPL-2.0
/*
 * The example driver of the ioctl registry: a misc device, /dev/ioctl_example,
 * whose ioctls, argument types and numbers all come from
 * tests/example/spec/headers/linux/ioctl_example.yaml through the header the
 * registry renders, <linux/ioctl_example.h>.  tests/verify/run builds it and
 * the verification guest exercises it from 64-bit, i386 and x32 programs.
 *
 * Every argument is made of fixed-width members with explicit padding, so it
 * has one size and one layout on x86_64, i386 and x32: a 32-bit caller's
 * command numbers and data are the 64-bit ones, and compat_ioctl only has to
 * convert the pointer (compat_ptr_ioctl).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/uaccess.h>
#include <linux/ioctl_example.h>

static DEFINE_MUTEX(example_lock);
static struct ioctl_example_config example_config;	/* under example_lock */

static long example_set_config(void __user *argp)
{
	struct ioctl_example_config config;

	if (copy_from_user(&config, argp, sizeof(config)))
		return -EFAULT;
	if (config.flags || config.__pad ||
	    strnlen(config.name, sizeof(config.name)) == sizeof(config.name))
		return -EINVAL;
	mutex_lock(&example_lock);
	example_config = config;
	mutex_unlock(&example_lock);
	return 0;
}

static long example_get_config(void __user *argp)
{
	struct ioctl_example_config config;

	mutex_lock(&example_lock);
	config = example_config;
	mutex_unlock(&example_lock);
	if (copy_to_user(argp, &config, sizeof(config)))
		return -EFAULT;
	return 0;
}

static long example_xform(void __user *argp)
{
	struct ioctl_example_xform xform;

	if (copy_from_user(&xform, argp, sizeof(xform)))
		return -EFAULT;
	if (xform.__pad)
		return -EINVAL;
	switch (xform.op) {
	case IOCTL_EXAMPLE_OP_ADD_START:
		mutex_lock(&example_lock);
		xform.value += example_config.range.start;
		mutex_unlock(&example_lock);
		break;
	case IOCTL_EXAMPLE_OP_SWAB:
		xform.value = swab64(xform.value);
		break;
	default:
		return -EINVAL;
	}
	if (copy_to_user(argp, &xform, sizeof(xform)))
		return -EFAULT;
	return 0;
}

static long example_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case IOCTL_EXAMPLE_RESET:
		mutex_lock(&example_lock);
		memset(&example_config, 0, sizeof(example_config));
		mutex_unlock(&example_lock);
		return 0;
	case IOCTL_EXAMPLE_SET_CONFIG:
		return example_set_config(argp);
	case IOCTL_EXAMPLE_GET_CONFIG:
		return example_get_config(argp);
	case IOCTL_EXAMPLE_XFORM:
		return example_xform(argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations example_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= example_ioctl,
	/* The same numbers and layouts on every ABI: no compat structs. */
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice example_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "ioctl_example",
	.fops	= &example_fops,
};
module_misc_device(example_misc);

MODULE_DESCRIPTION("The ioctl registry's example driver (tests/example)");
MODULE_LICENSE("GPL");
